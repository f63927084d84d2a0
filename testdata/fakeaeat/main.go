// Command fakeaeat answers as the real aeat CLI (cadrumo 0.2.2) does, for
// the verbs of examples/aeat.manifest.json, and refuses what it refuses.
// Its rules are data — rules.json, embedded — and a test
// (internal/aeatfacts TestFakeRulesAreTheFacts) holds that table to
// testdata/aeat-cli/facts.json, the facts of the real CLI's source, each
// with its file:line. What it does, in the real CLI's order:
//
//  1. root options only before the verb (--format, --lang/--language,
//     --profile, --quiet/--verbose/--debug, --version); --version prints
//     "CADRUMO 0.2.2";
//  2. an unknown verb, an unknown --profile: a usage refusal (exit 2,
//     REFUSED_CLI_BOUNDARY, "command": null);
//  3. the store: CADRUMO_LOCAL_STORAGE_ROOT, else $XDG_DATA_HOME (when
//     absolute) or ~/.local/share, then cadrumo/storage — a user who moved
//     it and whose server drops the variable sees another, empty store;
//  4. the login gate — the root callback, before the verb's own options
//     are parsed — for verbs not exempt (config profile show NAME is): a
//     session (fake-store.json's "session", idle for less than
//     CADRUMO_BUCKET_DEFAULT_IDLE_LOCK_MINUTES, default 15, sliding) whose
//     keyring backend is reachable (on Linux: DBUS_SESSION_BUS_ADDRESS or
//     XDG_RUNTIME_DIR set, else exit 3 AUTH_STORAGE_KEYRING_UNAVAILABLE), or
//     CADRUMO_SECRET_PASSPHRASE equal to the profile's passphrase (another
//     value: exit 3 AUTH_STORAGE_MASTER_KEY_PASSPHRASE_MISMATCH); otherwise
//     exit 2, REFUSED_CLI_BOUNDARY, suggestion "aeat config login",
//     context.reason "absent" or "expired_idle";
//  5. the verb's own options as commands.json has them: unknown options,
//     missing values, bad choices, integers out of range, missing required
//     options and arguments are usage refusals;
//  6. no active profile: exempt verbs run, the others refuse by themselves;
//  7. --secrets-stdin: one JSON object of exactly the facts' shape, all
//     strings, at most 8192 bytes, no duplicate keys;
//  8. the cross-field rules of facts.json (BadParameter: "command": null);
//  9. the result: a success envelope on stdout (pretty-printed), or exit 2
//     after a success envelope for config check (findings) and config
//     profile show (blocking issues, an unreadable record).
//
// Errors are the real error document on stderr — one line, keys sorted:
// {"active_profile", "command", "error": {"category", "code", "context",
// "message", "retryable", "runbook_id", "suggestion", "trace_id"},
// "notices", "schema_version", "status": "error"} — when --format json is
// anywhere in argv, the text form otherwise. Live verbs print the real
// auth-preflight lines on stderr first.
//
// The store is the fake's own file, fake-store.json, which tests write:
// {"active": "casa", "profiles": {"casa": {"passphrase": "…", "complete":
// true, "blocking": false, "check_issues": [], "certificates": ["fnmt"]}},
// "session": {"profile": "casa", "backend": "keyring", "last_used": "…"},
// "secrets": {…}}. certificate secret set stores what it read there. Each
// call's argv and environment names are appended to fake-calls.jsonl
// beside it (a test's window; the real CLI keeps no such log).
//
// Knobs that are not the real CLI's (the example manifest passes
// CADRUMO_*): CADRUMO_FAKE_FAIL=auth|locked|locked_session|internal fails
// every gated verb so after the gate; CADRUMO_FAKE_DELAY slows live verbs;
// CADRUMO_FAKE_ECHO_SECRET=1 makes the CLI careless: it prints the
// passphrase it was given on stderr, and its error messages end with the
// secrets it was given (environment and stdin) as input_value='…';
// CADRUMO_FAKE_LONG_ERROR=N pads the error message to N bytes.
package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

//go:embed rules.json
var rulesJSON []byte

type table struct {
	Version struct {
		Line string `json:"line"`
	} `json:"version"`
	Usage struct {
		ExitCode  int    `json:"exit_code"`
		ErrorCode string `json:"error_code"`
		Category  string `json:"category"`
	} `json:"usage"`
	Login struct {
		Refusal struct {
			ExitCode   int    `json:"exit_code"`
			Category   string `json:"category"`
			ErrorCode  string `json:"error_code"`
			Retryable  bool   `json:"retryable"`
			Suggestion string `json:"suggestion"`
			LoggedOut  reason `json:"logged_out"`
			Lapsed     reason `json:"lapsed"`
		} `json:"refusal"`
		NoActiveProfile struct {
			ExitCode          int    `json:"exit_code"`
			ErrorCode         string `json:"error_code"`
			Message           string `json:"message"`
			MessageRegistered string `json:"message_registered"`
		} `json:"no_active_profile"`
		// KeyringEnv is what the CLI's keyring reaches the Secret Service
		// through (on Linux): without it, a session kept there is gone.
		KeyringEnv         string  `json:"keyring_env"`
		IdleEnv            string  `json:"idle_env"`
		IdleMinutes        int     `json:"idle_minutes"`
		HeadlessEnv        string  `json:"headless_env"`
		KeyringUnavailable failure `json:"keyring_unavailable"`
		PassphraseMismatch failure `json:"passphrase_mismatch"`
	} `json:"login"`
	Stdin struct {
		MaxBytes  int               `json:"max_bytes"`
		ErrorCode string            `json:"error_code"`
		ExitCode  int               `json:"exit_code"`
		Messages  map[string]string `json:"messages"`
	} `json:"stdin"`
	Verbs    map[string]*verb `json:"verbs"`
	FirstRun struct {
		ProfileCreate struct {
			QuietRequired []string `json:"quiet_required"`
			MissingFlag   failure  `json:"missing_flag"`
		} `json:"profile_create"`
		Passphrase struct {
			MinLength      int     `json:"min_length"`
			TooShort       failure `json:"too_short"`
			NotInteractive failure `json:"not_interactive"`
		} `json:"passphrase"`
		Login struct {
			NoProfile           failure `json:"no_profile"`
			SessionNotPersisted struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"session_not_persisted"`
		} `json:"login"`
		NextAction struct {
			NoProfile  string `json:"no_profile"`
			Registered string `json:"registered"`
			Ready      string `json:"ready"`
			Incomplete string `json:"incomplete"`
		} `json:"next_action"`
	} `json:"first_run"`
}

type reason struct {
	Reasons []string `json:"reasons"`
	Message string   `json:"message"`
}

type failure struct {
	ExitCode   int    `json:"exit_code"`
	Category   string `json:"category"`
	ErrorCode  string `json:"error_code"`
	Retryable  bool   `json:"retryable"`
	Suggestion string `json:"suggestion"`
	Message    string `json:"message"`
}

type verb struct {
	Command string `json:"command"`
	// AnswersWithoutProfile: with no active profile the verb answers
	// (config auth status says so) instead of refusing.
	AnswersWithoutProfile bool              `json:"answers_without_profile"`
	Exempt                bool              `json:"exempt"`
	ExemptWithArgument    bool              `json:"exempt_with_argument"`
	Exit2WithSuccess      bool              `json:"exit2_with_success"`
	Options               map[string]option `json:"options"`
	Arguments             []struct {
		Name     string `json:"name"`
		Required bool   `json:"required"`
	} `json:"arguments"`
	Required []string `json:"required"`
	Stdin    *struct {
		Flag  string            `json:"flag"`
		Shape map[string]string `json:"shape"`
		// Optional: without the flag the verb takes its secret elsewhere
		// (config login: CADRUMO_SECRET_PASSPHRASE).
		Optional bool `json:"optional"`
	} `json:"stdin"`
	Rules []rule `json:"rules"`
}

type option struct {
	Value    bool     `json:"value"`
	Multiple bool     `json:"multiple"`
	Integer  bool     `json:"integer"`
	Choices  []string `json:"choices"`
	Min      *float64 `json:"min"`
	Max      *float64 `json:"max"`
	Negates  string   `json:"negates"`
}

type rule struct {
	Rule      map[string]any    `json:"rule"`
	ErrorCode string            `json:"error_code"`
	ExitCode  int               `json:"exit_code"`
	Message   string            `json:"message"`
	Messages  map[string]string `json:"messages"`
	Command   string            `json:"command"`
	State     string            `json:"state"`
	When      string            `json:"when"`
}

var rules table

// rootOptions are the root's options (facts.json "globals"): name → takes
// a value.
var rootOptions = map[string]bool{
	"--format": true, "--lang": true, "--language": true, "--profile": true,
	"--quiet": false, "--verbose": false, "--debug": false, "--version": false, "-V": false, "--detail": false,
}

// store is fake-store.json.
type store struct {
	Active   string              `json:"active"`
	Profiles map[string]*profile `json:"profiles"`
	Session  *session            `json:"session,omitempty"`
	Secrets  map[string]string   `json:"secrets,omitempty"`
}

// session is a login session kept in the OS keychain (backend "keyring").
type session struct {
	Profile  string    `json:"profile"`
	Backend  string    `json:"backend"`
	LastUsed time.Time `json:"last_used"`
}

type profile struct {
	Passphrase   string   `json:"passphrase"`
	Complete     bool     `json:"complete"`
	Blocking     bool     `json:"blocking"`
	CheckIssues  []string `json:"check_issues"`
	Certificates []string `json:"certificates"`
}

// call is one invocation.
type call struct {
	argv     []string
	json     bool
	profile  string // the active (or --profile) label; "" without one
	path     string
	v        *verb
	options  map[string][]string
	args     []string
	root     string
	st       *store
	stdinDoc map[string]string
}

func main() {
	if err := json.Unmarshal(rulesJSON, &rules); err != nil {
		panic(err)
	}
	c := &call{argv: os.Args[1:], options: map[string][]string{}}
	// --format json anywhere in argv makes even a parse-time error a JSON
	// document (click_context.py:138).
	c.json = slices.Contains(c.argv, "--json") || slices.Contains(c.argv, "--format=json") || hasPair(c.argv, "--format", "json")
	os.Exit(c.run())
}

func hasPair(argv []string, name, value string) bool {
	for i := 0; i+1 < len(argv); i++ {
		if argv[i] == name && argv[i+1] == value {
			return true
		}
	}
	return false
}

// refusal ends a call with an error document (or its text form). A
// negative exit is a verdict after a success envelope: nothing more is
// printed.
type refusal struct {
	exit       int
	category   string
	code       string
	message    string
	suggestion string
	retryable  bool
	context    map[string]string
	command    string // "" for null
}

func (c *call) usage(format string, a ...any) *refusal {
	return &refusal{exit: rules.Usage.ExitCode, category: rules.Usage.Category, code: rules.Usage.ErrorCode, message: fmt.Sprintf(format, a...)}
}

func (c *call) run() int {
	r := c.steps()
	if r == nil {
		return 0
	}
	if r.exit < 0 {
		return -r.exit
	}
	c.fail(r)
	return r.exit
}

func (c *call) steps() *refusal {
	i, r := c.rootOptions()
	if r != nil || i < 0 {
		return r
	}
	if r := c.resolveVerb(i); r != nil {
		return r
	}
	c.root = storageRoot()
	c.st = loadStore(c.root)
	c.record()
	if r := c.selectProfile(); r != nil {
		return r
	}
	// The root callback (the gate) runs before Click parses the verb's own
	// options, so a logged-out call with a bad option is refused for the
	// login; the gate reads only the raw tokens (is a NAME given to
	// config profile show?), which the parse below collects.
	leaf := c.parseLeaf()
	if r := c.gate(); r != nil {
		return r
	}
	if leaf != nil {
		return leaf
	}
	if c.profile == "" && !c.v.Exempt && !c.v.AnswersWithoutProfile {
		np := rules.Login.NoActiveProfile
		msg := np.Message
		if len(c.st.Profiles) > 0 { // _common.py:241: one is registered, none active
			msg = np.MessageRegistered
		}
		return &refusal{exit: np.ExitCode, category: "REFUSED", code: np.ErrorCode, message: msg, command: c.v.Command}
	}
	if r := c.readStdin(); r != nil {
		return r
	}
	if r := c.crossField(); r != nil {
		return r
	}
	return c.body()
}

// rootOptions reads the options before the verb; it returns the index of
// the verb's first word, or -1 when the call is over (--version).
func (c *call) rootOptions() (int, *refusal) {
	i := 0
	for ; i < len(c.argv) && strings.HasPrefix(c.argv[i], "-"); i++ {
		name, val, hasVal := strings.Cut(c.argv[i], "=")
		takes, ok := rootOptions[name]
		if !ok {
			return 0, c.usage("No such option: %s", name)
		}
		if takes && !hasVal {
			if i+1 >= len(c.argv) {
				return 0, c.usage("Option '%s' requires an argument.", name)
			}
			i++
			val = c.argv[i]
		}
		switch name {
		case "--format":
			if val != "text" && val != "json" {
				return 0, c.usage("Invalid value for '--format': '%s' is not one of 'text', 'json'.", val)
			}
		case "--lang", "--language":
			if !slices.Contains([]string{"es", "en", "ca", "hu"}, val) {
				return 0, c.usage("Invalid value for '--language': '%s' is not one of 'es', 'en', 'ca', 'hu'.", val)
			}
		case "--profile":
			c.profile = val
		case "--version", "-V":
			fmt.Println(rules.Version.Line)
			return -1, nil
		}
	}
	return i, nil
}

// resolveVerb finds the longest known verb path in the words after the
// root options.
func (c *call) resolveVerb(i int) *refusal {
	var words []string
	for ; i < len(c.argv) && !strings.HasPrefix(c.argv[i], "-"); i++ {
		words = append(words, c.argv[i])
	}
	for n := len(words); n > 0; n-- {
		if v, ok := rules.Verbs[strings.Join(words[:n], " ")]; ok {
			c.path, c.v = strings.Join(words[:n], " "), v
			c.args = append(c.args, words[n:]...)
			c.argv = c.argv[i:]
			return nil
		}
	}
	return c.usage("No such command '%s'.", strings.Join(words, " "))
}

// storageRoot is where the store is, as the real CLI finds it
// (_config_state_root.py).
func storageRoot() string {
	if r := os.Getenv("CADRUMO_LOCAL_STORAGE_ROOT"); r != "" {
		return r
	}
	home, _ := os.UserHomeDir()
	base := filepath.Join(home, ".local", "share")
	switch runtime.GOOS {
	case "darwin":
		base = filepath.Join(home, "Library", "Application Support")
	case "windows":
		if l := os.Getenv("LOCALAPPDATA"); filepath.IsAbs(l) {
			base = l
		} else {
			base = filepath.Join(home, "AppData", "Local")
		}
	default:
		if x := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
			base = x
		}
	}
	return filepath.Join(base, "cadrumo", "storage")
}

func loadStore(root string) *store {
	st := &store{Profiles: map[string]*profile{}}
	if raw, err := os.ReadFile(filepath.Join(root, "fake-store.json")); err == nil {
		_ = json.Unmarshal(raw, st)
	}
	if st.Profiles == nil {
		st.Profiles = map[string]*profile{}
	}
	return st
}

// record appends this call's argv and the names of its environment to
// fake-calls.jsonl beside the store, for tests to check what the CLI was
// given (a test's window, not an answer: the real CLI keeps no such log).
func (c *call) record() {
	if _, err := os.Stat(c.root); err != nil {
		return
	}
	var names []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		names = append(names, k)
	}
	line, _ := json.Marshal(map[string]any{"argv": os.Args[1:], "env": names})
	f, err := os.OpenFile(filepath.Join(c.root, "fake-calls.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(line, '\n'))
}

func (c *call) saveStore() {
	raw, _ := json.MarshalIndent(c.st, "", "  ")
	_ = os.MkdirAll(c.root, 0o700)
	_ = os.WriteFile(filepath.Join(c.root, "fake-store.json"), raw, 0o600)
}

// selectProfile resolves --profile (an unknown label is refused) or the
// active pointer.
func (c *call) selectProfile() *refusal {
	if c.profile != "" {
		if _, ok := c.st.Profiles[c.profile]; !ok {
			return &refusal{exit: 2, category: "REFUSED", code: "REFUSED_CLI_BOUNDARY",
				message: fmt.Sprintf("Unknown profile: %s. Run 'aeat config profile list' to see registered profiles.", c.profile),
				context: map[string]string{"name": c.profile}}
		}
		return nil
	}
	if _, ok := c.st.Profiles[c.st.Active]; ok {
		c.profile = c.st.Active
	}
	return nil
}

// gate is the login gate (facts.json "login"): no active profile, an
// exempt verb, config profile show NAME pass; the rest need unlocked.
func (c *call) gate() *refusal {
	if c.profile == "" || c.v.Exempt || (c.v.ExemptWithArgument && len(c.args) > 0) {
		return nil
	}
	return c.unlocked()
}

// unlocked is whether the profile's store can be opened: a live session
// whose keychain is reachable, or the headless passphrase.
func (c *call) unlocked() *refusal {
	lg := rules.Login
	idle := time.Duration(lg.IdleMinutes) * time.Minute
	if m, err := strconv.Atoi(os.Getenv(lg.IdleEnv)); err == nil && m > 0 {
		idle = time.Duration(m) * time.Minute
	}
	s := c.st.Session
	reason := "absent"
	keyringDown := false
	if s != nil && s.Profile == c.profile {
		keyringDown = s.Backend == "keyring" && !keyringReachable()
		switch {
		case keyringDown:
		case time.Since(s.LastUsed) > idle:
			reason = "expired_idle"
		default:
			s.LastUsed = time.Now().UTC() // the idle window slides
			c.saveStore()
			return nil
		}
	}
	if pass, ok := os.LookupEnv(lg.HeadlessEnv); ok && pass != "" {
		if pass != c.st.Profiles[c.profile].Passphrase {
			return c.mismatch()
		}
		if os.Getenv("CADRUMO_FAKE_ECHO_SECRET") == "1" {
			fmt.Fprintf(os.Stderr, "debug: unlocking with passphrase %s\n", pass)
		}
		return nil
	}
	if keyringDown {
		k := lg.KeyringUnavailable
		return &refusal{exit: k.ExitCode, category: k.Category, code: k.ErrorCode, retryable: k.Retryable,
			message: k.Message, suggestion: k.Suggestion, command: c.v.Command}
	}
	ref := lg.Refusal
	msg := ref.LoggedOut.Message
	if slices.Contains(ref.Lapsed.Reasons, reason) {
		msg = ref.Lapsed.Message
	}
	return &refusal{exit: ref.ExitCode, category: ref.Category, code: ref.ErrorCode, retryable: ref.Retryable,
		message: msg, suggestion: ref.Suggestion, context: map[string]string{"reason": reason}}
}

// mismatch is the refusal of a passphrase that does not open the profile.
func (c *call) mismatch() *refusal {
	m := rules.Login.PassphraseMismatch
	return &refusal{exit: m.ExitCode, category: m.Category, code: m.ErrorCode, retryable: m.Retryable,
		message: "The passphrase does not unwrap the master key. Re-enter it; if you have forgotten it, run aeat config recover with your 24-word recovery code.",
		command: c.v.Command}
}

// keyringReachable: the CLI's keyring reaches the Secret Service — on
// Linux only through the bus DBUS_SESSION_BUS_ADDRESS names (rules.json
// login.keyring_env); elsewhere the OS keychain needs no address.
func keyringReachable() bool {
	return runtime.GOOS != "linux" || os.Getenv(rules.Login.KeyringEnv) != ""
}

// parseLeaf reads the verb's own options and arguments (Click's parser:
// every refusal is a usage error).
func (c *call) parseLeaf() *refusal {
	argv := c.argv
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			c.args = append(c.args, argv[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") {
			c.args = append(c.args, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		o, ok := c.v.Options[name]
		if !ok {
			return c.usage("No such option: %s", name) // a root option after the verb lands here
		}
		if o.Negates != "" {
			delete(c.options, o.Negates)
			continue
		}
		if !o.Value {
			c.options[name] = []string{""}
			continue
		}
		if !hasVal {
			if i+1 >= len(argv) {
				return c.usage("Option '%s' requires an argument.", name)
			}
			i++
			val = argv[i]
		}
		if len(o.Choices) > 0 && !slices.Contains(o.Choices, val) {
			return c.usage("Invalid value for '%s': '%s' is not one of %s.", name, val, quoted(o.Choices))
		}
		if o.Integer {
			n, err := strconv.Atoi(val)
			if err != nil {
				return c.usage("Invalid value for '%s': '%s' is not a valid integer.", name, val)
			}
			if (o.Min != nil && float64(n) < *o.Min) || (o.Max != nil && float64(n) > *o.Max) {
				return c.usage("Invalid value for '%s': %d is not in the range %s.", name, n, rangeText(o))
			}
		}
		if o.Multiple {
			c.options[name] = append(c.options[name], val)
		} else {
			c.options[name] = []string{val}
		}
	}
	for _, r := range c.v.Required {
		if !c.has(r) {
			return c.usage("Missing option '%s'.", r)
		}
	}
	if len(c.args) > len(c.v.Arguments) {
		return c.usage("Got unexpected extra argument (%s)", c.args[len(c.v.Arguments)])
	}
	for i, a := range c.v.Arguments {
		if a.Required && i >= len(c.args) {
			return c.usage("Missing argument '%s'.", strings.ToUpper(a.Name))
		}
	}
	return nil
}

func quoted(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}

func rangeText(o option) string {
	switch {
	case o.Min != nil && o.Max != nil:
		return fmt.Sprintf("%v<=x<=%v", *o.Min, *o.Max)
	case o.Min != nil:
		return fmt.Sprintf("x>=%v", *o.Min)
	}
	return fmt.Sprintf("x<=%v", *o.Max)
}

func (c *call) has(name string) bool { _, ok := c.options[name]; return ok }

func (c *call) one(name string) string {
	if v := c.options[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

// readStdin is the shared --secrets-stdin reader (_secure_input.py).
func (c *call) readStdin() *refusal {
	if c.v.Stdin == nil {
		return nil
	}
	s := rules.Stdin
	refuse := func(key string) *refusal {
		return &refusal{exit: s.ExitCode, category: "REFUSED", code: s.ErrorCode, message: s.Messages[key], command: c.v.Command}
	}
	if !c.has(c.v.Stdin.Flag) && c.v.Stdin.Optional {
		return nil
	}
	if !c.has(c.v.Stdin.Flag) {
		return &refusal{exit: 2, category: "REFUSED", code: "REFUSED_CLI_BOUNDARY",
			message: "A secret is required but no interactive terminal is available; use --secrets-stdin.", command: c.v.Command}
	}
	raw, _ := io.ReadAll(io.LimitReader(os.Stdin, int64(s.MaxBytes)+1))
	if len(raw) > s.MaxBytes {
		return refuse("too_large")
	}
	if !utf8.Valid(raw) || duplicateKeys(raw) {
		return refuse("invalid_json")
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
		return refuse("invalid_json")
	}
	if len(doc) != len(c.v.Stdin.Shape) {
		return refuse("missing_fields")
	}
	c.stdinDoc = map[string]string{}
	for k := range c.v.Stdin.Shape {
		v, ok := doc[k].(string)
		if !ok {
			return refuse("missing_fields")
		}
		c.stdinDoc[k] = v
	}
	return nil
}

// duplicateKeys reports a key repeated in any object of raw (the real
// reader refuses them; encoding/json keeps the last).
func duplicateKeys(raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var walk func() bool
	walk = func() bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ := k.(string)
				if seen[key] {
					return true
				}
				seen[key] = true
				if walk() {
					return true
				}
			}
			_, _ = dec.Token()
		case json.Delim('['):
			for dec.More() {
				if walk() {
					return true
				}
			}
			_, _ = dec.Token()
		}
		return false
	}
	return walk()
}

// crossField applies the verb's rules (facts.json cross_field), in order.
func (c *call) crossField() *refusal {
	for _, r := range c.v.Rules {
		msg, broken := c.breaks(r)
		if !broken {
			continue
		}
		msg = strings.ReplaceAll(msg, "{--period}", c.one("--period"))
		if len(c.args) > 0 {
			msg = strings.ReplaceAll(msg, "{name}", c.args[0])
		}
		return &refusal{exit: r.ExitCode, category: "REFUSED", code: r.ErrorCode, message: msg, command: r.Command}
	}
	return nil
}

// breaks reports whether the call breaks r, and the message that says so.
func (c *call) breaks(r rule) (string, bool) {
	rl := r.Rule
	strs := func(key string) []string {
		var out []string
		list, _ := rl[key].([]any)
		for _, x := range list {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	switch {
	case rl["if_any"] != nil: // filed pull: --period/--expediente only in single mode
		if slices.ContainsFunc(strs("if_any"), c.has) && !c.singleFiledPull() {
			return r.Message, true
		}
	case rl["mutually_exclusive"] != nil: // filed pull's year range, in bulk mode
		if r.When == "bulk" && c.singleFiledPull() {
			return "", false
		}
		year, from, to := c.has("--year"), c.has("--from-year"), c.has("--to-year")
		switch {
		case year && (from || to):
			return r.Messages["mutually_exclusive"], true
		case !year && !from && !to:
			return r.Messages["requires_one_of"], true
		case !year && from != to:
			return r.Messages["together"], true
		case from && to:
			f, _ := strconv.Atoi(c.one("--from-year"))
			t, _ := strconv.Atoi(c.one("--to-year"))
			if f > t {
				return r.Messages["order"], true
			}
		}
	case rl["together"] != nil:
		n := 0
		for _, o := range strs("together") {
			if c.has(o) {
				n++
			}
		}
		return r.Message, n > 0 && n < len(strs("together"))
	case rl["value_range"] != nil:
		for o := range rl["value_range"].(map[string]any) {
			if c.has(o) {
				if n, _ := strconv.Atoi(c.one(o)); n <= 0 {
					return r.Message, true
				}
			}
		}
	case rl["unless"] != nil:
		unless, _ := rl["unless"].(string)
		return r.Message, !c.has(unless) && !slices.ContainsFunc(strs("requires"), c.has)
	case rl["if"] != nil:
		cond, _ := rl["if"].(string)
		applies := c.has(cond)
		if r.State == "profile_incomplete" {
			applies = !c.st.Profiles[c.profile].Complete
		}
		if applies && !slices.ContainsFunc(strs("requires"), c.has) {
			return r.Message, true
		}
	}
	return "", false
}

// singleFiledPull: one --modelo with --year and no range (_app_live.py).
func (c *call) singleFiledPull() bool {
	return len(c.options["--modelo"]) == 1 && c.has("--year") && !c.has("--from-year") && !c.has("--to-year")
}

// failed is the refusal a failure of rules.json says.
func (c *call) failed(f failure, a ...any) *refusal {
	msg := f.Message
	if len(a) > 0 {
		msg = fmt.Sprintf(msg, a...)
	}
	return &refusal{exit: f.ExitCode, category: f.Category, code: f.ErrorCode, message: msg, suggestion: f.Suggestion,
		retryable: f.Retryable, command: c.v.Command}
}

// fail prints the refusal: the JSON error document with --format json,
// the text form otherwise.
func (c *call) fail(r *refusal) {
	if os.Getenv("CADRUMO_FAKE_ECHO_SECRET") == "1" { // as a parser's input_value='…' does
		for _, v := range []string{os.Getenv(rules.Login.HeadlessEnv), c.stdinDoc["secret"]} {
			if v != "" {
				r.message += fmt.Sprintf(" (input_value='%s')", v)
			}
		}
	}
	if n, err := strconv.Atoi(os.Getenv("CADRUMO_FAKE_LONG_ERROR")); err == nil && n > len(r.message) {
		r.message += " " + strings.Repeat("x", n-len(r.message)-1)
	}
	if !c.json {
		fmt.Fprintf(os.Stderr, "%s. %s\n", titleCategory(r.category), r.message)
		if r.suggestion != "" {
			fmt.Fprintf(os.Stderr, "  -> Run `%s`\n", r.suggestion)
		}
		for k, v := range r.context {
			fmt.Fprintf(os.Stderr, "  %s: %s\n", k, v)
		}
		return
	}
	var ctx, cmd, profile, sugg any
	if r.context != nil {
		ctx = r.context
	}
	if r.command != "" {
		cmd = r.command
	}
	if c.profile != "" {
		profile = c.profile
	}
	if r.suggestion != "" {
		sugg = r.suggestion
	}
	doc := map[string]any{"schema_version": "2", "command": cmd, "active_profile": profile, "status": "error", "notices": []any{},
		"error": map[string]any{"code": r.code, "category": r.category, "message": r.message, "suggestion": sugg,
			"retryable": r.retryable, "runbook_id": nil, "context": ctx, "trace_id": nil}}
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // keys sorted, compact, one line, not ASCII-escaped
	enc.SetEscapeHTML(false)
	_ = enc.Encode(doc)
	os.Stderr.Write(b.Bytes())
}

func titleCategory(cat string) string {
	switch cat {
	case "REFUSED":
		return "Refused"
	case "FAIL":
		return "Failed"
	}
	return strings.ToUpper(cat[:1]) + strings.ToLower(cat[1:])
}

// emit prints the success envelope on stdout.
func (c *call) emit(result map[string]any) { c.emitNotices(result) }

// emitNotices prints the success envelope with notices; a warning among
// them makes its status "warning" (json_contract.py:259).
func (c *call) emitNotices(result map[string]any, notices ...map[string]any) {
	var profile any
	if c.profile != "" {
		profile = c.profile
	}
	status, list := "success", []any{}
	for _, n := range notices {
		if n["severity"] == "warning" {
			status = "warning"
		}
		list = append(list, n)
	}
	env := map[string]any{"schema_version": "2", "command": c.v.Command, "active_profile": profile,
		"status": status, "result": result, "notices": list}
	if !c.json { // key/value lines, then each notice's message (_custody.py:270)
		for _, k := range sortedKeys(result) {
			fmt.Printf("%s\t%v\n", k, result[k])
		}
		for _, n := range notices {
			fmt.Println(n["message"])
		}
		return
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(env)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// injected is a failure CADRUMO_FAKE_FAIL asks for (not the real CLI's
// knob; the codes and their retryable flags are facts.json's).
func (c *call) injected() *refusal {
	switch os.Getenv("CADRUMO_FAKE_FAIL") {
	case "auth":
		return &refusal{exit: 3, category: "AUTH", code: "AUTH_STORAGE_KEYRING_UNAVAILABLE", command: c.v.Command,
			message: rules.Login.KeyringUnavailable.Message, suggestion: rules.Login.KeyringUnavailable.Suggestion}
	case "locked":
		return &refusal{exit: 7, category: "LOCKED", code: "LOCKED_STORAGE_BUCKET_BUSY", retryable: true, command: c.v.Command,
			message: "Another aeat process holds this profile's storage; retry when it is done."}
	case "locked_session":
		return &refusal{exit: 7, category: "LOCKED", code: "LOCKED_STORAGE_BUCKET_SESSION", retryable: false, command: c.v.Command,
			message: "The profile's storage is locked by a session."}
	case "internal":
		return &refusal{exit: 6, category: "INTERNAL", code: "INTERNAL_CLI_UNEXPECTED_BOUNDARY", command: c.v.Command,
			message: "An unexpected error occurred."}
	}
	return nil
}

// live prints what a live verb prints before its browser starts: the auth
// preflight (_app_live_auth_preflight.py), then waits CADRUMO_FAKE_DELAY.
func (c *call) live() {
	for _, l := range []string{"auth_preflight=redacted", "auth_provider=certificado-electronico", "auth_configured=True",
		"auth_available=True", "auth_persisted_session=present", "auth_probe_result=ok"} {
		fmt.Fprintln(os.Stderr, l)
	}
	d, _ := time.ParseDuration(os.Getenv("CADRUMO_FAKE_DELAY"))
	for i := 0; i < 3; i++ {
		time.Sleep(d / 3)
	}
}
