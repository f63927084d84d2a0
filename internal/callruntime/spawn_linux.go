package callruntime

import (
	"os/exec"
	"runtime"
	"sync"
)

// Every call's program is forked from one OS thread that never exits.
//
// Linux sends a child its Pdeathsig when the *thread* that forked it exits,
// not the process (golang/go#27505): a child forked from an ordinary
// goroutine dies whenever the Go scheduler retires that thread. Locking a
// thread per call for the child's whole life — what this package did
// before — costs a thread hand-off each way and parks one thread per call
// in flight. The spawner locks one thread for the life of the process
// instead: children die with the process, and never before.

type spawnRequest struct {
	start func() (*exec.Cmd, error)
	done  chan spawnResult
}

type spawnResult struct {
	cmd *exec.Cmd
	err error
}

var (
	spawnOnce sync.Once
	spawns    chan spawnRequest
)

// spawn runs start (which forks) on the spawner thread.
func spawn(start func() (*exec.Cmd, error)) (*exec.Cmd, error) {
	spawnOnce.Do(func() {
		spawns = make(chan spawnRequest)
		ready := make(chan struct{})
		go func() {
			runtime.LockOSThread() // never unlocked: this goroutine never returns
			close(ready)
			for req := range spawns {
				cmd, err := runStart(req.start)
				req.done <- spawnResult{cmd, err}
			}
		}()
		<-ready
	})
	done := make(chan spawnResult, 1)
	spawns <- spawnRequest{start: start, done: done}
	r := <-done
	return r.cmd, r.err
}

// runStart keeps a panic in start from killing the spawner (and with its
// thread, every child it forked).
func runStart(start func() (*exec.Cmd, error)) (cmd *exec.Cmd, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &spawnPanic{p}
		}
	}()
	return start()
}

type spawnPanic struct{ v any }

func (p *spawnPanic) Error() string { return "panic while starting the program" }
