package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inputs is what one call hands the CLI besides its argv that the model
// never sees: the secrets loaded from the OS keychain into its environment
// (cli.env.keychain) and its stdin (a tool's stdin env, keychain or param).
// It is gathered in one place, [call.gather], at call time, so that a
// secret stored with `aeat-mcp secret set` is used at the next call, and
// so that every secret value of the call is in one list for whatever must
// keep it out of results, progress and logs.
type inputs struct {
	// env are the variables to add to the CLI's environment (a variable
	// the server's own environment passes keeps its value).
	env map[string]string
	// stdin is what the CLI reads; nil for the null device.
	stdin []byte
	// secrets are the exact values handed to the CLI that must never
	// reach a result, progress message or log: each keychain variable's
	// value, and stdin's value as the source gave it and as written.
	secrets [][]byte
	// fromEnv says, for each keychain secret the CLI was given, whether it
	// came from the server's own environment (which wins) rather than the
	// keychain: a failure about it says where to correct it (sourceLines).
	fromEnv map[string]bool
}

func (in *inputs) secret(v string) {
	if v != "" {
		in.secrets = append(in.secrets, []byte(v))
	}
}

// gather loads the call's secrets. A secret the call cannot do without
// (a cli.env.keychain variable that is not optional, a tool's stdin
// keychain secret) that neither the server's environment nor the keychain
// has is a refusal that names it and how to store it; a keychain that
// cannot be read is a refusal that says why. An optional one is left out
// (logged at debug level, by name only).
func (rq *request) gather(ctx context.Context, inv annotations.Invocation) (inputs, *mcp.CallToolResult) {
	g := &gathering{rq: rq, ctx: ctx, in: inputs{env: map[string]string{}, fromEnv: map[string]bool{}}}
	cliEnv := newEnvMap(rq.s.goos, rq.s.env)
	for _, k := range rq.s.cfg.Manifest.CLI.Keychain {
		if v, ok := g.need(k.Name, cliEnv, k.Optional); ok {
			g.in.fromEnv[k.Name] = cliEnv.has(k.Name)
			if keychain.Check(v) != nil {
				// Stored before secret set refused it (keychain.ErrNUL):
				// the CLI could not even start with it in its environment.
				g.unusable = append(g.unusable, k.Name)
				continue
			}
			if !cliEnv.has(k.Name) {
				g.in.env[k.Name] = v
			}
			g.in.secret(v)
		}
	}
	if st := rq.t.Stdin; st != nil {
		g.stdin(st, inv)
	}
	switch {
	case len(g.unusable) > 0:
		return g.in, rq.secretUnusable(g.unusable)
	case len(g.broken) > 0:
		return g.in, rq.keychainUnavailable(g.broken, g.why)
	case len(g.missing) > 0:
		return g.in, rq.missingSecret(g.missing)
	}
	return g.in, nil
}

// gathering is one call's secrets being read: what it hands the CLI, and
// what it could not find.
type gathering struct {
	rq  *request
	ctx context.Context
	in  inputs
	// missing are the secrets the call needs that are nowhere; broken,
	// those the keychain could not give, the first time for why;
	// unusable, those it gave that no environment can carry.
	missing, broken, unusable []string
	why                       error
}

// need is a secret's value, if found; optional says whether the call can
// do without it. One it needs that is nowhere is missing; one the
// keychain could not give is broken, unless optional.
func (g *gathering) need(name string, have envMap, optional bool) (string, bool) {
	n := len(g.broken)
	v, ok := g.lookup(name, have, optional)
	switch {
	case ok:
	case optional:
		g.broken = g.broken[:n] // an optional secret may be absent, for whatever reason
	case len(g.broken) == n:
		g.missing = append(g.missing, name)
	}
	return v, ok
}

// lookup is a secret's value: the server's own variable, else the
// keychain's entry of that name.
func (g *gathering) lookup(name string, have envMap, optional bool) (string, bool) {
	s := g.rq.s
	if have.has(name) {
		return have.value(name), true
	}
	if optional && s.keychainResting() {
		return "", false // it just failed: an optional secret does not wait on it again
	}
	v, err := keychain.Get(g.ctx, s.keychain, name, s.keychainWait)
	switch {
	case err == nil && v != "":
		return v, true
	case err == nil, errors.Is(err, keychain.ErrNotFound):
		return "", false
	}
	s.cfg.Logger.Debug("keychain unavailable", "tool", g.rq.t.Name, "secret", name, "error", err)
	s.keychainFailed()
	if g.why == nil {
		g.why = err
	}
	g.broken = append(g.broken, name)
	return "", false
}

// stdin is what the CLI reads: a variable of the server's own, a keychain
// secret, or the call's stdin param — each a secret, as given and as
// written.
func (g *gathering) stdin(st *annotations.StdinSource, inv annotations.Invocation) {
	var v string
	switch {
	case st.Env != "":
		v = g.rq.s.stdinEnv[st.Env] // checked at start-up: a missing one refused the call before here
	case st.Keychain != "":
		own := newEnvMap(g.rq.s.goos, g.rq.s.environ)
		var ok bool
		if v, ok = g.need(st.Keychain, own, false); ok {
			g.in.fromEnv[st.Keychain] = own.has(st.Keychain)
		}
		if keychain.Check(v) != nil {
			g.unusable = append(g.unusable, st.Keychain)
			return
		}
	case inv.Stdin != nil:
		v = *inv.Stdin
	}
	g.in.stdin = st.Bytes(v)
	g.in.secret(v)
	g.in.secret(string(g.in.stdin))
}

// sourceLines say where each secret the CLI was given came from, for the
// secrets that what the model reads of a failure names (the manifest's
// hint, the CLI's message or remedy): a wrong value is corrected where it
// came from, and the server's environment (a host's "env" block) wins over
// the keychain.
func (in *inputs) sourceLines(p *i18n.Printer, read ...string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(in.fromEnv)) {
		if !slices.ContainsFunc(read, func(s string) bool { return strings.Contains(s, name) }) {
			continue
		}
		if in.fromEnv[name] {
			out = append(out, p.Sprintf(i18n.SecretFromEnv, name))
		} else {
			out = append(out, p.Sprintf(i18n.SecretFromKeychain, name))
		}
	}
	return out
}

// keychainRest is how long optional secrets skip a keychain that could not
// be read: a locked keychain waits keychain.DefaultWait on a prompt nobody
// sees, and a call that runs fine without the secret should not pay that
// every time. Required secrets still ask (and refuse with the reason).
const keychainRest = time.Minute

func (s *Server) keychainFailed() {
	s.kcMu.Lock()
	s.kcRestUntil = time.Now().Add(keychainRest)
	s.kcMu.Unlock()
}

func (s *Server) keychainResting() bool {
	s.kcMu.Lock()
	defer s.kcMu.Unlock()
	return time.Now().Before(s.kcRestUntil)
}

// missingSecret is the refusal of a call whose secret is neither in the
// keychain nor in the server's environment: the model is told to ask the
// user to store it, and how.
func (e *ending) missingSecret(names []string) *mcp.CallToolResult {
	cmds := make([]string, len(names))
	for i, n := range names {
		cmds[i] = SecretSetCommand(n)
	}
	return e.lacking(names, e.s.cfg.Printer.Sprintf(i18n.MissingSecret, e.t.Name, strings.Join(names, ", "), strings.Join(cmds, "; ")))
}

// keychainUnavailable is the refusal of a call whose secret the keychain
// could not give.
func (e *ending) keychainUnavailable(names []string, why error) *mcp.CallToolResult {
	return e.lacking(names, e.s.cfg.Printer.Sprintf(i18n.KeychainUnavailable, e.t.Name, strings.Join(names, ", "), errString(why)))
}

// secretUnusable is the refusal of a call whose secret the keychain holds
// with a NUL byte (stored before `aeat-mcp secret set` refused one): the
// CLI could not start with it in its environment, and the fix is to store
// it again — not to install the CLI.
func (e *ending) secretUnusable(names []string) *mcp.CallToolResult {
	cmds := make([]string, len(names))
	for i, n := range names {
		cmds[i] = SecretSetCommand(n)
	}
	return e.lacking(names, e.s.cfg.Printer.Sprintf(i18n.SecretUnusable, e.t.Name, strings.Join(names, ", "), strings.Join(cmds, "; ")))
}

// SecretSetCommand is how a person stores the secret name in the keychain.
func SecretSetCommand(name string) string { return "aeat-mcp secret set " + name }

// SecretState is where one secret the manifest names stands on this
// machine, for doctor and validate.
type SecretState struct {
	Name string
	// Tools are the tools that read it; empty for a cli.env.keychain
	// variable (every tool's CLI gets it).
	Tools []string
	// Required: calls refuse without it (a cli.env.keychain variable that
	// is not optional, or a tool's stdin keychain secret — that tool's).
	Required bool
	// From is "env" (the server's environment has it), "keychain", or ""
	// (neither); Err says why the keychain could not be read.
	From string
	Err  error
}

// Secrets says, for every secret the manifest reads from the keychain,
// where it is found: the server's environment (environ, as it started),
// the keychain, or nowhere. It reads the keychain (store, if nil the OS
// keychain as environ reaches it).
func Secrets(ctx context.Context, goos string, environ []string, m *annotations.Manifest, store keychain.Store) []SecretState {
	if store == nil {
		store = keychain.OS(environ)
	}
	own := newEnvMap(goos, environ)
	var out []SecretState
	idx := map[string]int{}
	add := func(name, tool string, required bool) {
		i, ok := idx[name]
		if !ok {
			i = len(out)
			idx[name] = i
			out = append(out, SecretState{Name: name})
		}
		if tool != "" {
			out[i].Tools = append(out[i].Tools, tool)
		}
		out[i].Required = out[i].Required || required
	}
	for _, k := range m.CLI.Keychain {
		add(k.Name, "", !k.Optional)
	}
	for _, t := range m.Tools {
		if t.Stdin != nil && t.Stdin.Keychain != "" {
			add(t.Stdin.Keychain, t.Name, true)
		}
	}
	for i := range out {
		st := &out[i]
		if own.has(st.Name) {
			st.From = "env"
			continue
		}
		v, err := keychain.Get(ctx, store, st.Name, 0)
		switch {
		case err == nil && keychain.Check(v) != nil:
			st.Err = fmt.Errorf("stored in the OS keychain, but %w: store it again with %s", keychain.ErrNUL, SecretSetCommand(st.Name))
		case err == nil:
			st.From = "keychain"
		case !errors.Is(err, keychain.ErrNotFound):
			st.Err = err
		}
	}
	return out
}

// KeychainTrouble is why the keychain could not be read for the first
// secret that hit it, nil when none did: said once, not per secret.
func KeychainTrouble(states []SecretState) error {
	for _, st := range states {
		if st.Err != nil {
			return st.Err
		}
	}
	return nil
}

// unreadable reports whether the keychain could not be read for st: not
// a value stored with a NUL byte, which was read and is fixed by storing
// it again.
func (st SecretState) unreadable() bool {
	return st.Err != nil && !errors.Is(st.Err, keychain.ErrNUL)
}

// String says it for a person.
func (st SecretState) String() string {
	switch {
	case st.From == "env":
		return fmt.Sprintf("%s is set in aeat-mcp's environment (the host's \"env\" block, or the shell it started from), which wins over the OS keychain", st.Name)
	case st.From == "keychain":
		return fmt.Sprintf("%s is stored in the OS keychain", st.Name)
	case errors.Is(st.Err, keychain.ErrNUL):
		return fmt.Sprintf("%s: %v", st.Name, st.Err)
	case st.Err != nil:
		return fmt.Sprintf("%s is not in aeat-mcp's environment, and the OS keychain cannot be read", st.Name)
	}
	return fmt.Sprintf("%s is neither in the OS keychain nor in aeat-mcp's environment", st.Name)
}

// Secrets a call hands the CLI (its stdin, its keychain variables,
// docs/manifest.md, "`cli`") never reach the model, even when the CLI prints them
// back: callruntime redacts them from
// both streams as they flow (callruntime.Spec.Secrets), which covers the
// result's text, progress and a task's status; what the server derives
// from the output afterwards — text cleaned of control sequences, JSON
// decoded for structuredContent and cli_error — is redacted again here,
// because cleaning and decoding can join what the stream kept apart
// ("hun\x1b[0mter2", "\u0068unter2").

// redacted are the values to keep out of everything the host gets for
// this call: each secret the call hands the CLI, in every form secretsOf
// gives (callruntime.Spec.Secrets).
func (in *inputs) redacted() [][]byte {
	var out [][]byte
	for _, v := range in.secrets {
		out = append(out, secretsOf(v)...)
	}
	return out
}

// secretsOf are the values to redact for a value the CLI is given as a
// secret: the value itself, without the blanks a variable may end with,
// and, when it is a JSON document — the real aeat reads one object of
// strings on stdin (facts.json, "stdin") — each string in it: a parser
// that refuses the document echoes a value (pydantic's input_value='…'),
// not the whole document. Keys are names ("secret", "passphrase"), not
// secrets.
func secretsOf(v []byte) [][]byte {
	if len(v) == 0 {
		return nil
	}
	out := [][]byte{v}
	if trimmed := bytes.TrimSpace(v); len(trimmed) != len(v) && len(trimmed) > 0 {
		out = append(out, trimmed)
	}
	var doc any
	if json.Unmarshal(v, &doc) == nil {
		for _, s := range stringsIn(doc, nil) {
			if s != "" {
				out = append(out, []byte(s))
			}
		}
	}
	return out
}

// stringsIn appends the strings of a decoded JSON value, at any depth.
func stringsIn(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case map[string]any:
		for _, e := range x {
			out = stringsIn(e, out)
		}
	case []any:
		for _, e := range x {
			out = stringsIn(e, out)
		}
	}
	return out
}

// redactValue redacts the secrets from a decoded JSON value — its strings
// and its keys — in place where it can, and reports whether any was found.
func redactValue(r *callruntime.SecretRedactor, v any) (any, bool) {
	if r == nil {
		return v, false
	}
	switch x := v.(type) {
	case string:
		y := r.RedactString(x)
		return y, y != x
	case map[string]any:
		changed := false
		renamed := map[string]string{}
		for k, e := range x {
			var c bool
			x[k], c = redactValue(r, e)
			if k2 := r.RedactString(k); k2 != k {
				renamed[k] = k2
				c = true
			}
			changed = changed || c
		}
		for k, k2 := range renamed {
			x[k2] = x[k]
			delete(x, k)
		}
		return x, changed
	case []any:
		changed := false
		for i, e := range x {
			var c bool
			x[i], c = redactValue(r, e)
			changed = changed || c
		}
		return x, changed
	}
	return v, false
}
