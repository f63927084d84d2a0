package callruntime

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// As the child subreaper, the server inherits every orphan of every call
// and must reap them. Sweeps at each call's end reap the orphans they
// kill, but an orphan that dies on its own time — a SIGTERM from another
// call's walk taking effect, a daemon exiting — after the last sweep would
// stay a zombie until some later call ends. zombieReaper reaps adopted
// zombies as they appear: the kernel sends us SIGCHLD for each.
type zombieReaper struct {
	signals chan os.Signal
	done    chan struct{}
	stopped chan struct{}
}

func (p *linuxPlatform) startZombieReaper() {
	z := &zombieReaper{signals: make(chan os.Signal, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	signal.Notify(z.signals, syscall.SIGCHLD)
	go func() {
		defer close(z.stopped)
		for {
			select {
			case <-z.signals:
				p.reapAdoptedZombies()
			case <-z.done:
				return
			}
		}
	}()
	p.zombies = z
}

func (p *linuxPlatform) stopZombieReaper() {
	if z := p.zombies; z != nil {
		signal.Stop(z.signals)
		close(z.done)
		<-z.stopped
	}
}

// reapAdoptedZombies reaps the zombies among the orphans we adopted.
// Leaders of calls in flight are not adopted (os/exec reaps them), nor are
// the lifeline and what this process started itself.
func (p *linuxPlatform) reapAdoptedZombies() {
	self := os.Getpid()
	p.startMu.Lock()
	defer p.startMu.Unlock()
	for _, pi := range scanProc() {
		if pi.zombie && p.adopted(pi, self) {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(pi.pid, &ws, unix.WNOHANG, nil)
		}
	}
}
