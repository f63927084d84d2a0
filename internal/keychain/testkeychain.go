//go:build aeatmcp_testkeychain

package keychain

import (
	"encoding/json"
	"errors"
	"os"
	"sync"
)

// In a binary built with -tags aeatmcp_testkeychain (tests only: the
// end-to-end tests build aeat-mcp so, to drive `secret set` and `serve` as
// separate processes on a machine without a keychain), AEAT_MCP_TEST_KEYCHAIN
// names a JSON file that stands in for the OS keychain, and
// AEAT_MCP_TEST_KEYCHAIN=unavailable makes it unreachable. A release build
// does not contain this file: the variable means nothing there.

// TestKeychainVar names the file of the test store.
const TestKeychainVar = "AEAT_MCP_TEST_KEYCHAIN"

func testStore() Store {
	path := os.Getenv(TestKeychainVar)
	switch path {
	case "":
		return nil
	case "unavailable":
		return brokenStore{}
	}
	return &fileStore{path: path}
}

type fileStore struct {
	mu   sync.Mutex
	path string
}

func (f *fileStore) load() (map[string]string, error) {
	m := map[string]string{}
	raw, err := os.ReadFile(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	} else if err != nil {
		return nil, &UnavailableError{Err: err}
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, &UnavailableError{Err: err}
	}
	return m, nil
}

func (f *fileStore) save(m map[string]string) error {
	raw, _ := json.Marshal(m)
	if err := os.WriteFile(f.path, raw, 0o600); err != nil {
		return &UnavailableError{Err: err}
	}
	return nil
}

func (f *fileStore) Get(name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.load()
	if err != nil {
		return "", err
	}
	v, ok := m[name]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (f *fileStore) Set(name, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.load()
	if err != nil {
		return err
	}
	m[name] = value
	return f.save(m)
}

func (f *fileStore) Delete(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.load()
	if err != nil {
		return err
	}
	if _, ok := m[name]; !ok {
		return ErrNotFound
	}
	delete(m, name)
	return f.save(m)
}

type brokenStore struct{}

var errBroken = errors.New("keychain: test keychain set to unavailable")

func (brokenStore) Get(string) (string, error) { return "", &UnavailableError{Err: errBroken} }
func (brokenStore) Set(string, string) error   { return &UnavailableError{Err: errBroken} }
func (brokenStore) Delete(string) error        { return &UnavailableError{Err: errBroken} }
