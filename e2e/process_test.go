package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// process is a started binary in a process group of its own, its output
// going to a log file.
type process struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	done    chan struct{} // closed when the process has been waited for
	err     error         // Wait's error, set before done closes
}

// startRequest asks the spawner to start one command.
type startRequest struct {
	cmd   *exec.Cmd
	reply chan error
}

var spawns = make(chan startRequest)

// The spawner starts every process from one goroutine locked to its OS
// thread for the life of the test binary: Linux delivers Pdeathsig when the
// thread that started a child exits, so the thread must outlive the test.
// Then a test binary killed by -timeout, a panic or a signal takes etcd and
// the API server with it.
func init() {
	go func() {
		runtime.LockOSThread()
		for r := range spawns {
			r.reply <- r.cmd.Start()
		}
	}()
}

// start runs path with args, its stdout and stderr in logPath.
func start(name, path, logPath string, args ...string) (*process, error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	reply := make(chan error)
	spawns <- startRequest{cmd, reply}
	if err := <-reply; err != nil {
		log.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, logPath: logPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		log.Close()
		close(p.done)
	}()
	return p, nil
}

// runToEnd runs a command to its end and returns its combined output. Like
// the servers it is started by the spawner, so that it dies with the test
// binary (which the go command ends at its -timeout plus a minute, whether
// TestMain is still building or not).
func runToEnd(cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	reply := make(chan error)
	spawns <- startRequest{cmd, reply}
	if err := <-reply; err != nil {
		return nil, err
	}
	err := cmd.Wait()
	return out.Bytes(), err
}

// exited reports whether the process has ended, and how.
func (p *process) exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// stop ends the process group: SIGTERM, then SIGKILL after grace. It
// returns once the process has been waited for. It may be called again.
func (p *process) stop(grace time.Duration) {
	if p == nil {
		return
	}
	pgid := p.cmd.Process.Pid // Setpgid: the group's id is the leader's pid
	if done, _ := p.exited(); !done {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(grace):
			fmt.Fprintf(os.Stderr, "e2e: %s (pid %d) did not stop in %s; killing it\n", p.name, pgid, grace)
		}
	}
	// Whatever is left of the group, if anything, goes now.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-p.done
}

// logTail is the end of the process's log, for failure messages.
func (p *process) logTail(n int) string {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return err.Error()
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
