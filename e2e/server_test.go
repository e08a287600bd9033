package e2e

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// The packages built: the API server and etcd, whose module's root package
// is the etcd server binary. go.mod pins both (its tool block).
const (
	apiserverPackage = "k8s.io/kubernetes/cmd/kube-apiserver"
	etcdPackage      = "go.etcd.io/etcd/server/v3"
)

// server is a running etcd and kube-apiserver, both on 127.0.0.1.
type server struct {
	dir       string // temporary: data, keys, certificates, logs
	url       string // https://127.0.0.1:PORT
	token     string // a static token of a user in system:masters
	client    *http.Client
	etcd      *process
	apiserver *process
}

// buildBinaries builds kube-apiserver and etcd into dir with `go build`,
// from this module's requirements: minutes the first time, seconds once
// Go's build cache holds the packages.
func buildBinaries(dir string) (apiserver, etcd string, err error) {
	cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator), apiserverPackage, etcdPackage)
	if out, err := runToEnd(cmd); err != nil {
		return "", "", fmt.Errorf("go build %s %s: %v\n%s", apiserverPackage, etcdPackage, err, out)
	}
	// go build names a binary by the package path's last element that is
	// not a major version suffix: "server" for go.etcd.io/etcd/server/v3.
	return filepath.Join(dir, "kube-apiserver"), filepath.Join(dir, "server"), nil
}

// startServer starts etcd, then the API server, and waits until the API
// server's /readyz answers. On an error everything started is stopped.
func startServer(apiserverBin, etcdBin string) (s *server, err error) {
	removeStaleDirs()
	dir, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		return nil, err
	}
	s = &server{dir: dir}
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return s, err
	}
	defer func() {
		if err != nil {
			s.stop()
		}
	}()
	ports, err := freePorts(3)
	if err != nil {
		return s, err
	}
	clientURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	s.etcd, err = start("etcd", etcdBin, filepath.Join(dir, "etcd.log"),
		"--name=e2e",
		"--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+clientURL,
		"--advertise-client-urls="+clientURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=e2e="+peerURL,
		"--unsafe-no-fsync", // a test's data need not survive a power cut
		"--log-level=warn",
	)
	if err != nil {
		return s, err
	}
	if err := waitHealthy(s.etcd, http.DefaultClient, clientURL+"/health", "", 60*time.Second); err != nil {
		return s, fmt.Errorf("etcd: %w\n%s", err, s.etcd.logTail(30))
	}

	saKey, saPub, err := writeServiceAccountKey(dir)
	if err != nil {
		return s, err
	}
	token := make([]byte, 24)
	if _, err := rand.Read(token); err != nil {
		return s, err
	}
	s.token = hex.EncodeToString(token)
	tokens := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokens, []byte(s.token+`,e2e-admin,e2e-admin,"system:masters"`+"\n"), 0o600); err != nil {
		return s, err
	}
	certDir := filepath.Join(dir, "certs")
	s.url = "https://127.0.0.1:" + strconv.Itoa(ports[2])
	s.apiserver, err = start("kube-apiserver", apiserverBin, filepath.Join(dir, "kube-apiserver.log"),
		"--etcd-servers="+clientURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(ports[2]),
		"--cert-dir="+certDir,
		"--token-auth-file="+tokens,
		"--authorization-mode=RBAC",
		"--service-account-key-file="+saPub,
		"--service-account-signing-key-file="+saKey,
		"--service-account-issuer=https://kubernetes.default.svc",
		// The default reconciler refuses a loopback advertise address.
		"--endpoint-reconciler-type=none",
	)
	if err != nil {
		return s, err
	}
	// The serving certificate appears in certDir once the server has
	// generated it; until then only a bare TLS handshake is possible.
	s.client, err = waitCertificate(s.apiserver, filepath.Join(certDir, "apiserver.crt"), 60*time.Second)
	if err != nil {
		return s, fmt.Errorf("kube-apiserver: %w\n%s", err, s.apiserver.logTail(30))
	}
	if err := waitHealthy(s.apiserver, s.client, s.url+"/readyz", s.token, 180*time.Second); err != nil {
		return s, fmt.Errorf("kube-apiserver: %w\n%s", err, s.apiserver.logTail(30))
	}
	return s, nil
}

// stop stops the API server, then etcd (the other order can leave the API
// server's shutdown waiting on etcd), and removes the temporary directory.
func (s *server) stop() {
	if s == nil {
		return
	}
	s.apiserver.stop(30 * time.Second)
	s.etcd.stop(15 * time.Second)
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
}

// tempPrefix starts the names of the servers' temporary directories.
const tempPrefix = "typedpatch-e2e-"

// removeStaleDirs removes the temporary directories of test binaries that
// ended without removing theirs (killed by -timeout, a panic or a signal;
// their servers died with them).
func removeStaleDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "pid"))
		if err != nil {
			continue // not yet written, or not ours
		}
		pid, err := strconv.Atoi(string(b))
		if err == nil && pid > 0 && syscall.Kill(pid, 0) == syscall.ESRCH {
			_ = os.RemoveAll(dir)
		}
	}
}

// freePorts finds n distinct free ports on 127.0.0.1. The listeners close
// before the servers bind, so another program could take one in between;
// the servers then fail to start and say so.
func freePorts(n int) ([]int, error) {
	var ports []int
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// writeServiceAccountKey writes a fresh RSA key pair for signing service
// account tokens.
func writeServiceAccountKey(dir string) (keyPath, pubPath string, err error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", "", err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return "", "", err
	}
	keyPath, pubPath = filepath.Join(dir, "sa.key"), filepath.Join(dir, "sa.pub")
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})
	if err := os.WriteFile(keyPath, keyPEM, 0o600); err != nil {
		return "", "", err
	}
	return keyPath, pubPath, os.WriteFile(pubPath, pubPEM, 0o600)
}

// waitCertificate waits for the API server's self-signed certificate and
// returns a client that trusts it, and only it.
func waitCertificate(p *process, path string, timeout time.Duration) (*http.Client, error) {
	deadline := time.Now().Add(timeout)
	for {
		if done, err := p.exited(); done {
			return nil, fmt.Errorf("exited before writing %s: %v", path, err)
		}
		if pemBytes, err := os.ReadFile(path); err == nil && len(pemBytes) > 0 {
			pool := x509.NewCertPool()
			if pool.AppendCertsFromPEM(pemBytes) {
				return &http.Client{
					Timeout:   60 * time.Second,
					Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
				}, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no certificate at %s after %s", path, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitHealthy polls url until it answers 200, the process exits, or the
// timeout passes.
func waitHealthy(p *process, client *http.Client, url, token string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		if done, err := p.exited(); done {
			return fmt.Errorf("exited before %s answered: %v", url, err)
		}
		last = probe(client, url, token)
		if last == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("%s not ready after %s: %v", url, timeout, last)
}

func probe(client *http.Client, url, token string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status + ": " + string(body))
	}
	return nil
}
