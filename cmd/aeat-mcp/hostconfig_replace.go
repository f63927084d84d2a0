package main

import "time"

// retryRename is the policy of a replace on Windows, apart from the calls
// it makes (parameters, so it runs anywhere): rename until it succeeds or
// fails for good. A transient failure is retried after a pause that grows
// to 250 ms, until the budget is spent; a destination with the read-only
// attribute (which MoveFileEx refuses to replace) has it cleared once —
// clearReadOnly says whether there was one — and the rename is tried again.
// Whether the file may be replaced at all is the caller's decision (merge
// refuses a file its owner made read-only before it gets here).
func retryRename(rename func() error, transient func(error) bool, clearReadOnly func() (bool, error), sleep func(time.Duration), budget time.Duration) error {
	pause, spent, cleared := 10*time.Millisecond, time.Duration(0), false
	for {
		err := rename()
		if err == nil {
			return nil
		}
		if !cleared {
			cleared = true
			if had, cerr := clearReadOnly(); cerr == nil && had {
				continue
			}
		}
		if !transient(err) || spent >= budget {
			return err
		}
		sleep(pause)
		spent += pause
		pause = min(2*pause, 250*time.Millisecond)
	}
}
