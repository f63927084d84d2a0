package main

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"unicode/utf8"

	"golang.org/x/term"
)

// errInterrupted: the person pressed Ctrl-C (or the process was told to
// stop) while typing a secret.
var errInterrupted = errors.New("interrupted: nothing stored")

// readHidden reads a secret typed on the terminal f, without echo. The
// terminal is raw while it reads — keys arrive one by one, Ctrl-C as a key
// and not a signal — and is restored on every path: Enter, Ctrl-D,
// Ctrl-C, a stop (ctx ends: SIGTERM, SIGHUP), an error; when cancelled, what was
// typed and not read yet is dropped. golang.org/x/term's
// ReadPassword left echo off when Ctrl-C killed the process, and took
// Ctrl-D on an empty line for nothing and went on reading (readKeys says
// what each key does).
func readHidden(ctx context.Context, f *os.File) ([]byte, error) {
	fd := int(f.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	restore := sync.OnceFunc(func() { _ = term.Restore(fd, state) })
	defer restore()
	type read struct {
		b   []byte
		err error
	}
	done := make(chan read, 1)
	go func() {
		b, err := readKeys(f)
		done <- read{b, err}
	}()
	var r read
	select {
	case r = <-done:
	case <-ctx.Done():
		r.err = errInterrupted // the read goes on in the background; the process ends
	}
	if errors.Is(r.err, errInterrupted) {
		// What was typed after Ctrl-C — the rest of the secret, Enter —
		// must not reach the shell as a command line.
		discardInput(fd)
	}
	return r.b, r.err
}

// Keys readKeys knows, as a raw terminal sends them.
const (
	keyCtrlC     = 0x03
	keyCtrlD     = 0x04
	keyBackspace = 0x08
	keyCtrlU     = 0x15
	keyCtrlZ     = 0x1a
	keyEscape    = 0x1b
	keyCtrlBS    = 0x1c // Ctrl-\ (quit)
	keyDelete    = 0x7f
)

// readKeys reads keys until the value ends: Enter (CR or LF) or Ctrl-D
// (Ctrl-Z on Windows) end it — on an empty line, with no value; Ctrl-C and
// Ctrl-\ cancel; Backspace erases the last character, Ctrl-U the line;
// escape sequences (arrows, function keys) and other control keys but Tab
// are skipped. A NUL (Ctrl-@) is kept, for the caller to refuse by name.
func readKeys(r io.Reader) ([]byte, error) {
	var value []byte
	var key [1]byte
	next := func() (byte, error) {
		n, err := r.Read(key[:])
		if n == 1 {
			return key[0], nil
		}
		if err == nil || errors.Is(err, io.EOF) {
			err = errors.New("the terminal closed: nothing stored")
		}
		return 0, err
	}
	for {
		c, err := next()
		if err != nil {
			return nil, err
		}
		switch {
		case c == '\r' || c == '\n' || c == keyCtrlD || c == keyCtrlZ:
			return value, nil
		case c == keyCtrlC || c == keyCtrlBS:
			return nil, errInterrupted
		case c == keyBackspace || c == keyDelete:
			_, size := utf8.DecodeLastRune(value) // a whole character
			value = value[:len(value)-size]
		case c == keyCtrlU:
			value = value[:0]
		case c == keyEscape:
			if err := skipEscape(next); err != nil {
				return nil, err
			}
		case c == 0 || c == '\t' || c >= ' ':
			value = append(value, c)
		}
	}
}

// skipEscape reads the rest of an escape sequence: ESC [ … final byte
// (CSI) or ESC O x (SS3), or ESC and one key.
func skipEscape(next func() (byte, error)) error {
	c, err := next()
	if err != nil || c != '[' && c != 'O' {
		return err
	}
	if c == 'O' {
		_, err = next()
		return err
	}
	for {
		c, err = next()
		if err != nil || c >= 0x40 && c <= 0x7e {
			return err
		}
	}
}
