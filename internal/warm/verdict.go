package warm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// A Verdict is how the last template started for a configuration fared on
// this machine: on (verified), or off and why. A [Pool] with
// Config.VerdictDir keeps it in a small file there each time it settles, so
// that a command that must not start a template (aeat-mcp tools) can still
// say whether warm start works and why not.
type Verdict struct {
	State    State     `json:"state"`
	Reason   string    `json:"reason,omitempty"`
	Verified int       `json:"verified"`
	At       time.Time `json:"at"`
	// Files and Stamp are the CLI's files (the script and the package
	// files the template loaded) and their sizes and times then: a verdict
	// about another version of the CLI is not current.
	Files []string `json:"files,omitempty"`
	Stamp string   `json:"stamp,omitempty"`
	// Sticky: off for the CLI as installed, not for one template (a
	// forked child crashed, the fork canary failed): while it is current,
	// a Pool starts off without trying.
	Sticky bool `json:"sticky,omitempty"`
	// ReadyMS and ColdMS are what a template's start took and what a cold
	// call takes, here: the next server weighs a wait for its template
	// against a cold start with them.
	ReadyMS int64 `json:"ready_ms,omitempty"`
	ColdMS  int64 `json:"cold_ms,omitempty"`
}

// VerdictKey names the verdicts of one configuration: the interpreter, the
// script and its fixed arguments, and cli.warm. The environment is not part
// of it (its values change between sessions, and some are secrets): a
// verdict is about the CLI, kept per machine and user.
func VerdictKey(python, script string, args []string, w annotations.Warm) string {
	b, _ := json.Marshal(struct {
		Python, Script string
		Args           []string
		Warm           annotations.Warm
	}{python, script, args, w})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

func verdictPath(dir, key string) string { return filepath.Join(dir, "verdict-"+key+".json") }

// saveVerdict writes v for key in dir, atomically (several servers may
// share the directory).
func saveVerdict(dir, key string, v Verdict) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".verdict-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), verdictPath(dir, key)); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// LoadVerdict reads the verdict kept for key in dir. current says whether
// the CLI's files are still as they were when it was reached; an error
// satisfying errors.Is(err, fs.ErrNotExist) means no template was started
// for this configuration here yet.
func LoadVerdict(dir, key string) (v Verdict, current bool, err error) {
	b, err := os.ReadFile(verdictPath(dir, key))
	if err != nil {
		return v, false, err
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return v, false, err
	}
	return v, v.Stamp == fingerprint(v.Files), nil
}
