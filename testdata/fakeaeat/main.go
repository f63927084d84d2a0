// Command fakeaeat behaves like the real aeat CLI where aeat-mcp meets it
// (../shared/aeat-cli/README.md), for the verbs of
// examples/aeat.manifest.json, so that manifest can be driven end to end:
//
//   - global options (--format, --lang, --profile, --quiet/--verbose/--debug)
//     only before the verb; after it they are an unknown option (exit 2);
//   - --format json prints an envelope on stdout ({"schema_version",
//     "command", "status", "result", "notices"}) and errors as an envelope
//     on stderr, after noise lines (a warning, a deprecation note);
//   - exit codes 0 ok, 1 error, 2 refused (and config check's findings),
//     3 auth, 4 integrity, 5 fail, 6 internal, 7 locked;
//   - destructive verbs refuse without --yes, unless --dry-run;
//   - --secrets-stdin reads a JSON object of secrets from stdin;
//   - without CADRUMO_STORAGE_ROOT it sees an empty default profile and
//     "succeeds" with no data, as the real one does;
//   - CADRUMO_FAKE_FAIL=auth|locked|internal makes every verb fail so, and
//     live verbs report progress lines on stderr and take CADRUMO_FAKE_DELAY.
//
// It never echoes a secret: "secret set" reports how many keys it stored.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// verb is what fakeaeat knows of one command: its options (name → takes a
// value), the required ones, how many positional arguments, and its kind.
type verb struct {
	options  map[string]bool
	required []string
	args     int
	live     bool
	confirm  bool // refuses without --yes unless --dry-run
}

func opts(flags []string, values ...string) map[string]bool {
	m := map[string]bool{}
	for _, f := range flags {
		m[f] = false
	}
	for _, v := range values {
		m[v] = true
	}
	return m
}

var verbs = map[string]verb{
	"app ledger list":     {options: opts([]string{"--by-group", "--hide-llm-rejected"}, "--filter", "--period", "--year", "--limit", "--offset", "--group", "--sort-by", "--sort-order")},
	"app ledger view":     {args: 1},
	"app ledger status":   {options: opts(nil, "--period", "--year")},
	"config profile list": {options: opts(nil, "--output-language", "--language")},
	"config profile show": {args: 1, options: opts(nil, "--output-language", "--language")},
	"config check":        {},
	"config auth status":  {options: opts(nil, "--provider", "--output-language")},
	"app modelo list":     {options: opts(nil, "--year", "--domain")},
	"app overview status": {options: opts([]string{"--verbose"}, "--period", "--year")},
	"app overview agenda": {options: opts([]string{"--allow-incomplete"}, "--date", "--horizon")},
	"app ledger import": {options: opts([]string{"--dry-run", "--verify", "--verbose"}, "--file", "--provider", "--verify-source", "--period", "--year"),
		required: []string{"--file", "--provider"}},
	"app ledger remove":                  {args: 1, options: opts([]string{"--dry-run", "--yes"}, "--reason", "--actor"), confirm: true},
	"config profile sandbox discard":     {args: 1, options: opts([]string{"--yes", "--dry-run", "--no-dry-run"}, "--output-language"), confirm: true},
	"config auth certificate secret set": {options: opts([]string{"--secrets-stdin"}, "--name", "--output-language"), required: []string{"--name"}},
	"app live filed list":                {live: true, options: opts(nil, "--modelo", "--from-year", "--to-year")},
	"app live filed pull":                {live: true, options: opts(nil, "--modelo", "--year", "--from-year", "--to-year", "--output-root", "--period", "--expediente", "--limit")},
	"app live justificante pull":         {live: true, options: opts(nil, "--modelo", "--year", "--period"), required: []string{"--modelo", "--year", "--period"}},
	"app live notifications pull":        {live: true},
	"app live deudas list":               {live: true},
}

var globals = opts([]string{"--quiet", "--verbose", "--debug"}, "--format", "--lang", "--profile")

// call is one parsed invocation.
type call struct {
	format, lang, profile string
	command               string
	options               map[string][]string
	args                  []string
}

func main() {
	c, code, err := parse(os.Args[1:])
	if err != nil {
		refuse(c, code, "usage", err.Error())
	}
	fmt.Fprintln(os.Stderr, "WARNING: cadrumo 0.2.2 is a development release") // noise, as the real one prints
	os.Exit(c.run())
}

func parse(argv []string) (*call, int, error) {
	c := &call{format: "text", options: map[string][]string{}}
	i := 0
	for ; i < len(argv) && strings.HasPrefix(argv[i], "-"); i++ {
		name, val, hasVal := strings.Cut(argv[i], "=")
		takes, ok := globals[name]
		if !ok {
			return c, 2, fmt.Errorf("no such option: %s", name)
		}
		if takes && !hasVal {
			if i+1 >= len(argv) {
				return c, 2, fmt.Errorf("option %s requires an argument", name)
			}
			i++
			val = argv[i]
		}
		switch name {
		case "--format":
			c.format = val
		case "--lang":
			c.lang = val
		case "--profile":
			c.profile = val
		}
	}
	var words []string
	for ; i < len(argv) && !strings.HasPrefix(argv[i], "-"); i++ {
		words = append(words, argv[i])
	}
	c.command = strings.Join(words, " ")
	v, ok := verbs[c.command]
	if !ok {
		return c, 2, fmt.Errorf("no such command: %q", c.command)
	}
	for ; i < len(argv); i++ {
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
		takes, ok := v.options[name]
		if !ok {
			return c, 2, fmt.Errorf("no such option: %s", name) // a global after the verb lands here
		}
		if takes && !hasVal {
			return c, 2, fmt.Errorf("option %s requires an argument", name)
		}
		c.options[name] = append(c.options[name], val)
	}
	for _, r := range v.required {
		if _, ok := c.options[r]; !ok {
			return c, 2, fmt.Errorf("missing option %s", r)
		}
	}
	if len(c.args) != v.args && !(v.args == 1 && len(c.args) == 0 && c.command == "config profile show") {
		return c, 2, fmt.Errorf("%s takes %d argument(s), got %d", c.command, v.args, len(c.args))
	}
	if _, y := c.options["--year"]; y && c.command != "app modelo list" && c.command != "app overview status" && !strings.HasPrefix(c.command, "app live") {
		if _, p := c.options["--period"]; !p {
			return c, 2, fmt.Errorf("--year requires --period")
		}
	}
	return c, 0, nil
}

func (c *call) has(name string) bool { _, ok := c.options[name]; return ok }

func (c *call) run() int {
	v := verbs[c.command]
	switch os.Getenv("CADRUMO_FAKE_FAIL") {
	case "auth":
		refuse(c, 3, "auth", "the certificate's session was rejected by the AEAT")
	case "locked":
		refuse(c, 7, "locked", "another process holds the profile lock")
	case "internal":
		refuse(c, 6, "internal", "unexpected state")
	}
	if v.live {
		d, _ := time.ParseDuration(os.Getenv("CADRUMO_FAKE_DELAY"))
		for _, step := range []string{"abriendo la sede electrónica", "autenticando con el certificado", "descargando"} {
			fmt.Fprintln(os.Stderr, step+"…")
			time.Sleep(d / 3)
		}
	}
	if v.confirm && !c.has("--yes") && !c.has("--dry-run") {
		refuse(c, 2, "confirmation_required", "this command deletes data: pass --yes to confirm")
	}
	result := map[string]any{"profile": c.profileName()}
	status := "ok"
	code := 0
	switch {
	case os.Getenv("CADRUMO_STORAGE_ROOT") == "":
		result["entries"] = []any{} // the empty default profile: a "success" with no data
	case c.command == "app ledger list":
		result["entries"] = []any{
			map[string]any{"id": "tx-1", "date": "2025-01-15", "amount": "-121.00", "description": "Cuota autónomos"},
			map[string]any{"id": "tx-2", "date": "2025-02-03", "amount": "1815.00", "description": "Factura 2025-004"},
		}
	case c.command == "config check":
		result["findings"] = []any{map[string]any{"check": "certificate", "problem": "expires in 12 days"}}
		code = 2 // findings: the real one exits 2 with a success envelope
	case c.command == "app ledger remove":
		result["removed"] = !c.has("--dry-run")
		result["confirmed_with_yes"] = c.has("--yes")
		result["transaction_id"] = c.args[0]
	case c.command == "config auth certificate secret set":
		if !c.has("--secrets-stdin") {
			refuse(c, 2, "usage", "--secrets-stdin is required")
		}
		var secrets map[string]any
		raw, _ := io.ReadAll(os.Stdin)
		if err := json.Unmarshal(raw, &secrets); err != nil || len(secrets) == 0 {
			refuse(c, 2, "secrets", "stdin is not a JSON object of secrets")
		}
		result["stored_keys"] = len(secrets)
	default:
		result["command"] = c.command
		result["options"] = c.options
		result["args"] = c.args
	}
	envelope := map[string]any{"schema_version": 1, "command": c.command, "status": status, "result": result, "notices": []any{}}
	if c.lang != "" {
		envelope["lang"] = c.lang
	}
	c.print(os.Stdout, envelope)
	return code
}

func (c *call) profileName() string {
	if c.profile != "" {
		return c.profile
	}
	return "default"
}

func (c *call) print(w io.Writer, v map[string]any) {
	if c.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(v)
		return
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s: %v\n", k, v[k])
	}
}

// refuse ends the call with code and an error envelope on stderr, after
// the noise a real run prints first.
func refuse(c *call, code int, kind, msg string) {
	fmt.Fprintln(os.Stderr, "DeprecationWarning: pkg_resources is deprecated")
	fmt.Fprintln(os.Stderr, "{ not json, a log line with a brace")
	c.print(os.Stderr, map[string]any{"schema_version": 1, "command": c.command, "status": "error",
		"error": map[string]any{"code": kind, "message": msg, "exit_code": code}})
	os.Exit(code)
}
