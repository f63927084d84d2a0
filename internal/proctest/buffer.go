package proctest

import (
	"strings"
	"sync"
)

// SyncBuffer is a strings.Builder safe to read while os/exec writes it: a
// started program's stderr, read by the test as it runs.
type SyncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
