//go:build windows

package main

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// lockFile holds an exclusive lock on path (created if need be) until the
// returned function is called; Windows drops it when the process dies.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	ol := new(windows.Overlapped)
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
		f.Close()
	}, nil
}

// replaceRetryBudget is how long a replace keeps retrying a transient
// failure: on Windows, an antivirus scanner, the search indexer or the host
// itself holding the file open without sharing deletion makes the rename
// fail with a sharing violation (or access denied) for a moment.
const replaceRetryBudget = 3 * time.Second

// replaceRename renames from over to (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING, what os.Rename does), retrying a sharing
// violation while another program holds to open, and clearing to's
// read-only attribute, which MoveFileEx will not replace.
func replaceRename(from, to string) error {
	return retryRename(
		func() error { return os.Rename(from, to) },
		transientRenameError,
		func() (bool, error) { return clearReadOnly(to) },
		time.Sleep, replaceRetryBudget)
}

func transientRenameError(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION) ||
		errors.Is(err, windows.ERROR_ACCESS_DENIED) // what a delete-pending or scanned file gives
}

// clearReadOnly removes path's read-only attribute, and says whether it had
// one.
func clearReadOnly(path string) (bool, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return false, err
	}
	attrs, err := windows.GetFileAttributes(p)
	if err != nil {
		return false, err
	}
	if attrs&windows.FILE_ATTRIBUTE_READONLY == 0 {
		return false, nil
	}
	return true, windows.SetFileAttributes(p, attrs&^windows.FILE_ATTRIBUTE_READONLY)
}
