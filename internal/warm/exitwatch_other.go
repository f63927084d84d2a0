//go:build unix && !linux && !darwin

package warm

import "github.com/aeat-mcp/aeat-mcp/internal/callruntime"

// exitWatch is not offered here: a warm child's end is what its template
// says.
type exitWatch struct{ gone chan struct{} }

func watchExit(int) *exitWatch { return nil }

func (w *exitWatch) kill()  {}
func (w *exitWatch) close() {}

func (w *exitWatch) reap() (callruntime.ExitStatus, bool) { return callruntime.ExitStatus{}, false }
