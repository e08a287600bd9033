package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoopbackOnly checks that etcd and the API server listen on
// 127.0.0.1 and nowhere else: every listening TCP socket the two processes
// hold, read from /proc, has a loopback address.
func TestLoopbackOnly(t *testing.T) {
	listening := listeningSockets(t)
	for _, p := range []*process{srv.etcd, srv.apiserver} {
		found := 0
		for _, inode := range socketInodes(t, p.cmd.Process.Pid) {
			addr, ok := listening[inode]
			if !ok {
				continue
			}
			found++
			t.Logf("%s listens on %s", p.name, addr)
			if !strings.HasPrefix(addr, "127.0.0.1:") {
				t.Errorf("%s listens on %s, not on loopback", p.name, addr)
			}
		}
		if found == 0 {
			t.Errorf("%s: no listening socket found", p.name)
		}
	}
}

// socketInodes are the inodes of the sockets among a process's open files.
func socketInodes(t *testing.T, pid int) []string {
	fds, err := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	if err != nil {
		t.Fatal(err)
	}
	var inodes []string
	for _, fd := range fds {
		link, err := os.Readlink(fd)
		if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes = append(inodes, strings.TrimSuffix(inode, "]"))
		}
	}
	return inodes
}

// listeningSockets maps the inode of each listening TCP socket of the
// machine to its local address; IPv4 loopback reads as 127.0.0.1:PORT, any
// other address as /proc shows it.
func listeningSockets(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // the header
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			addr := fields[1]
			if host, port, ok := strings.Cut(addr, ":"); ok && host == "0100007F" {
				var p int
				fmt.Sscanf(port, "%X", &p)
				addr = fmt.Sprintf("127.0.0.1:%d", p)
			}
			out[fields[9]] = addr
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
