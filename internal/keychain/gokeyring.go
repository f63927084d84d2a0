//go:build !(linux || dragonfly || freebsd || netbsd || openbsd)

package keychain

import (
	"errors"
	"fmt"

	"github.com/zalando/go-keyring"
)

// osStore is go-keyring's provider for this OS: the macOS Keychain (the
// security tool), the Windows Credential Manager. Neither is reached
// through the environment.
func osStore([]string) Store { return goKeyring{} }

type goKeyring struct{}

func (goKeyring) Get(name string) (string, error) {
	v, err := keyring.Get(Service, name)
	return v, classify(err)
}

func (goKeyring) Set(name, value string) error { return classify(keyring.Set(Service, name, value)) }

func (goKeyring) Delete(name string) error { return classify(keyring.Delete(Service, name)) }

func classify(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrNotFound):
		return ErrNotFound
	case errors.Is(err, keyring.ErrSetDataTooBig):
		return fmt.Errorf("the value is too long for this keychain: %w", err)
	}
	return &UnavailableError{Err: err}
}
