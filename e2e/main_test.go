package e2e

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// srv is the server every test talks to, started once by TestMain.
var srv *server

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	// A fixed directory lets go build find its earlier binaries up to date
	// and skip linking them again.
	binDir := filepath.Join(cache, "typedpatch-e2e", "bin")
	began := time.Now()
	apiserverBin, etcdBin, err := buildBinaries(binDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	built := time.Now()
	srv, err = startServer(apiserverBin, etcdBin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: starting the server:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "e2e: binaries built in %s, server ready in %s\n",
		built.Sub(began).Round(time.Second), time.Since(built).Round(100*time.Millisecond))

	// An interrupt stops the servers in order too; a killed test binary
	// takes them with it (Pdeathsig, see process_test.go).
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-signals
		srv.stop()
		os.Exit(2)
	}()

	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "e2e: end of the API server's log:\n%s\n", srv.apiserver.logTail(40))
	}
	signal.Stop(signals)
	srv.stop()
	return code
}
