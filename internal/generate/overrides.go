package generate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// overrides is a manifest-shaped file of changes merged over what was
// generated: `{"version": 1, "cli": {…}, "tools": [{"name": "GLOB", …}],
// …}`. It is merged as JSON, not as Go fields, so that any manifest key —
// today's or one added later — can be overridden without a change here:
//
//   - objects merge key by key, recursively; null removes a key; anything
//     else replaces (RFC 7396, JSON Merge Patch);
//   - "params" lists (cli.params, a tool's params) merge by name: an entry
//     changes the param of that name; in cli.params, a new name adds a
//     global param (the tree may not hold the CLI's root options);
//     "hidden": true removes a param, "hidden": false brings back one the
//     CLI hides;
//   - each tools entry names a generated tool, or a glob of names
//     (path.Match, as --tools), and carries only the keys it changes;
//     entries apply in the file's order. "hidden": true leaves the tool
//     out; "hidden": false brings back a verb the CLI hides or deprecates.
//     Setting a hint in annotations takes it off the tool's hints_guessed.
//   - every other top-level key merges into the manifest's.
//
// An entry that names no generated tool, or a param no matched tool has,
// is an error: a typo must not be silently ignored.
type overrides struct {
	name      string
	top       map[string]any
	cli       map[string]any
	cliParams []*paramPatch
	tools     []*toolPatch
}

type toolPatch struct {
	where   string // "tools[3]", for errors
	pattern string
	hidden  *bool
	params  []*paramPatch
	body    map[string]any
	// verb is set for a whole tool (an entry with a command): the words
	// of the verb it is the tool of.
	verb string
}

type paramPatch struct {
	where  string
	name   string
	hidden *bool
	body   map[string]any
}

// OverridesError lists every problem of an overrides file.
type OverridesError struct {
	File     string
	Problems []string
}

func (e *OverridesError) Error() string {
	name := e.File
	if name == "" {
		name = "overrides"
	}
	return name + ": " + strings.Join(e.Problems, "\n"+name+": ")
}

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// parseOverrides reads an overrides file; nil data is none.
func parseOverrides(data []byte, name string) (*overrides, error) {
	o := &overrides{name: name, top: map[string]any{}}
	if data == nil {
		return o, nil
	}
	e := &OverridesError{File: name}
	fail := func(format string, a ...any) { e.Problems = append(e.Problems, fmt.Sprintf(format, a...)) }
	v, err := decodeJSON(data)
	if err != nil {
		return nil, &OverridesError{File: name, Problems: []string{"invalid JSON: " + err.Error()}}
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, &OverridesError{File: name, Problems: []string{"must be an object, shaped like a manifest: {\"version\": 1, \"cli\": {…}, \"tools\": [{\"name\": \"…\", …}]}"}}
	}
	for k, val := range top {
		switch k {
		case "$schema":
		case "version":
			if n, ok := val.(json.Number); !ok || n.String() != "1" {
				fail("version: must be 1 (the manifest version the overrides are for)")
			}
		case "cli":
			cli, ok := val.(map[string]any)
			if !ok {
				fail("cli: must be an object")
				continue
			}
			o.cli = map[string]any{}
			for ck, cv := range cli {
				if ck == "params" {
					o.cliParams = parseParamPatches(cv, "cli.params", fail)
					continue
				}
				o.cli[ck] = cv
			}
		case "tools":
			list, ok := val.([]any)
			if !ok {
				fail("tools: must be a list of tool entries, each with a name (or a glob of names)")
				continue
			}
			for i, raw := range list {
				if tp := parseToolPatch(raw, fmt.Sprintf("tools[%d]", i), fail); tp != nil {
					o.tools = append(o.tools, tp)
				}
			}
		default:
			o.top[k] = val
		}
	}
	if len(e.Problems) > 0 {
		slices.Sort(e.Problems)
		return nil, e
	}
	return o, nil
}

func parseToolPatch(raw any, where string, fail func(string, ...any)) *toolPatch {
	obj, ok := raw.(map[string]any)
	if !ok {
		fail("%s: must be an object", where)
		return nil
	}
	tp := &toolPatch{where: where, body: map[string]any{}}
	name, ok := obj["name"].(string)
	if !ok || name == "" {
		fail("%s.name: missing: the generated tool it changes, or a glob of names (\"app_ledger_*\")", where)
		return nil
	}
	if _, err := path.Match(name, ""); err != nil {
		fail("%s.name: %q is not a glob: %v", where, name, err)
		return nil
	}
	tp.pattern = name
	tp.where = fmt.Sprintf("%s (%q)", where, name)
	if cmd, ok := obj["command"]; ok {
		return parseWholeTool(tp, obj, cmd, fail)
	}
	if _, ok := obj["review"]; ok {
		// generate --suggest-overrides writes it: the entry is a
		// suggestion until a person checked it and deleted the key.
		fail("%s: a suggestion not reviewed yet: check its evidence against the CLI, keep or change its annotations, then delete \"review\"", tp.where)
		return nil
	}
	for k, v := range obj {
		switch k {
		case "name":
		case "hidden":
			tp.hidden = boolField(v, tp.where+".hidden", fail)
		case "params":
			tp.params = parseParamPatches(v, tp.where+".params", fail)
		case "hints_from", "timeout_from":
			reasonFrom(obj, k, v, tp.where, fail)
		default:
			tp.body[k] = v
		}
	}
	return tp
}

// reasons are the keys that say why an entry sets another key, for the
// person who reviews it next: each is text, goes with the key it explains,
// and is never written to the manifest.
var reasons = table[reason]{
	// where in the CLI (a file:line of its source, and why) the
	// annotations were decided.
	{"hints_from", reason{"annotations", "where in the CLI its annotations were decided (file:line, and why)",
		"says where annotations were decided"}},
	// what a call does that needs the time (file:line), and what was
	// measured, at what load.
	{"timeout_from", reason{"timeout", "why the tool needs its own ceiling: what a call does (file:line), the times measured and the load",
		"says why the tool needs its own timeout"}},
}

// reason is what a reason key explains: the key it goes with, what it
// must say, and what the entry claims by it.
type reason struct{ key, says, claim string }

// reasonFrom checks an entry's reason key k (hints_from, timeout_from).
func reasonFrom(obj map[string]any, k string, v any, where string, fail func(string, ...any)) {
	r, _ := reasons.get(k)
	s, ok := v.(string)
	switch {
	case !ok || strings.TrimSpace(s) == "":
		fail("%s.%s: must be text: %s", where, k, r.says)
	case obj[r.key] == nil:
		fail("%s.%s: %s, but the entry sets none", where, k, r.claim)
	}
}

// parseWholeTool reads an entry that carries a command: the whole tool of
// that verb, as a manifest writes a tool, named by its name. It replaces
// what was generated for the verb (a person wrote every key of it), and
// its name may differ from the generated one.
func parseWholeTool(tp *toolPatch, obj map[string]any, cmd any, fail func(string, ...any)) *toolPatch {
	words, _ := cmd.([]any)
	var verb []string
	for _, w := range words {
		s, ok := w.(string)
		if !ok {
			fail("%s.command: must be a list of strings", tp.where)
			return nil
		}
		if strings.HasPrefix(s, "-") {
			break
		}
		verb = append(verb, s)
	}
	if len(verb) == 0 {
		fail("%s.command: names no verb (the words of the verb, then any fixed options)", tp.where)
		return nil
	}
	if strings.ContainsAny(tp.pattern, `*?[\`) {
		fail("%s.name: a whole tool (an entry with a command) is named, not matched: %q is a glob", tp.where, tp.pattern)
		return nil
	}
	tp.verb = strings.Join(verb, " ")
	for k, v := range obj {
		switch k {
		case "name":
		case "hidden":
			tp.hidden = boolField(v, tp.where+".hidden", fail)
		case "hints_from", "timeout_from":
			reasonFrom(obj, k, v, tp.where, fail)
		default:
			tp.body[k] = v
		}
	}
	return tp
}

func parseParamPatches(v any, where string, fail func(string, ...any)) []*paramPatch {
	list, ok := v.([]any)
	if !ok {
		fail("%s: must be a list of params, each with a name", where)
		return nil
	}
	var out []*paramPatch
	for i, raw := range list {
		w := fmt.Sprintf("%s[%d]", where, i)
		obj, ok := raw.(map[string]any)
		if !ok {
			fail("%s: must be an object", w)
			continue
		}
		name, ok := obj["name"].(string)
		if !ok || name == "" {
			fail("%s.name: missing: the param it changes", w)
			continue
		}
		pp := &paramPatch{where: fmt.Sprintf("%s (%q)", w, name), name: name, body: map[string]any{}}
		for k, val := range obj {
			switch k {
			case "name":
			case "hidden":
				pp.hidden = boolField(val, pp.where+".hidden", fail)
			default:
				pp.body[k] = val
			}
		}
		out = append(out, pp)
	}
	return out
}

func boolField(v any, where string, fail func(string, ...any)) *bool {
	b, ok := v.(bool)
	if !ok {
		fail("%s: must be true or false", where)
		return nil
	}
	return &b
}

// params is a params list being merged: the params in order, and which
// are hidden.
type params struct {
	list   []map[string]any
	hidden map[string]bool
}

func (ps *params) find(name string) map[string]any {
	for _, p := range ps.list {
		if p["name"] == name {
			return p
		}
	}
	return nil
}

// visible is the list without the hidden params, as a manifest writes it.
func (ps *params) visible() []any {
	out := []any{}
	for _, p := range ps.list {
		if !ps.hidden[p["name"].(string)] {
			out = append(out, p)
		}
	}
	return out
}

// apply merges pp into the param it names; false when there is none.
func (ps *params) apply(pp *paramPatch, allowNew bool) bool {
	p := ps.find(pp.name)
	if p == nil {
		if !allowNew || pp.hidden != nil && *pp.hidden {
			return false
		}
		p = map[string]any{"name": pp.name}
		ps.list = append(ps.list, p)
	}
	mergeInto(p, pp.body)
	if pp.hidden != nil {
		ps.hidden[pp.name] = *pp.hidden
	}
	return true
}

// mergeInto merges patch into target (RFC 7396), copying what it takes
// from patch: the same patch (a glob's) goes into many tools.
func mergeInto(target, patch map[string]any) {
	for k, v := range patch {
		if v == nil {
			delete(target, k)
			continue
		}
		if pm, ok := v.(map[string]any); ok {
			tm, ok := target[k].(map[string]any)
			if !ok {
				tm = map[string]any{}
				target[k] = tm
			}
			mergeInto(tm, pm)
			continue
		}
		target[k] = deepCopy(v)
	}
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// applyCLI merges the overrides' cli into the generated one.
func (o *overrides) applyCLI(cli map[string]any, globals *params) []string {
	var problems []string
	for _, pp := range o.cliParams {
		if !globals.apply(pp, true) {
			problems = append(problems, fmt.Sprintf("%s: hides a global param the CLI does not have", pp.where))
		}
	}
	mergeInto(cli, o.cli)
	return problems
}

// applyTools merges each tools entry into the candidates it names, or puts
// a whole tool in place of the verb's.
func (o *overrides) applyTools(cands []*candidate) []string {
	var problems []string
	byVerb := map[string]*candidate{}
	for _, c := range cands {
		byVerb[strings.Join(c.path, " ")] = c
	}
	for _, tp := range o.tools {
		if tp.verb != "" {
			c := byVerb[tp.verb]
			if c == nil {
				problems = append(problems, fmt.Sprintf("%s: command %q is no verb of the CLI", tp.where, tp.verb))
				continue
			}
			problems = append(problems, c.replaceWith(tp)...)
			continue
		}
		var hits []*candidate
		for _, c := range cands {
			if ok, _ := path.Match(tp.pattern, c.name); ok {
				hits = append(hits, c)
			}
		}
		if len(hits) == 0 {
			problems = append(problems, fmt.Sprintf("%s: names no generated tool%s", tp.where, nearest(tp.pattern, cands)))
			continue
		}
		for _, pp := range tp.params {
			found := false
			for _, c := range hits {
				if c.params.apply(pp, false) {
					found = true
				}
			}
			if !found {
				problems = append(problems, fmt.Sprintf("%s: %s (%s)", pp.where, noParam(hits, pp.name), paramNames(hits)))
			}
		}
		for _, c := range hits {
			if tp.hidden != nil {
				switch {
				case !*tp.hidden && c.fixed != "":
					problems = append(problems, fmt.Sprintf("%s: %s cannot be brought back: %s", tp.where, c.name, c.fixed))
				case *tp.hidden:
					c.leftOut = "hidden by the overrides"
				default:
					c.leftOut = ""
				}
			}
			if a, ok := tp.body["annotations"].(map[string]any); ok {
				c.unguess(a)
			}
			mergeInto(c.tool, tp.body)
		}
	}
	return append(problems, sameNames(cands)...)
}

// sameNames: a whole tool's name must not be another verb's.
func sameNames(cands []*candidate) []string {
	by := map[string][]string{}
	for _, c := range cands {
		if c.leftOut == "" {
			by[c.name] = append(by[c.name], strings.Join(c.path, " "))
		}
	}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(by)) {
		if verbs := by[name]; len(verbs) > 1 {
			problems = append(problems, fmt.Sprintf("tool name %q is given to %s: rename the overrides' tool", name, strings.Join(verbs, " and ")))
		}
	}
	return problems
}

// replaceWith makes tp the verb's tool: its keys and params as written,
// its name. Its options must be the verb's (a typo must not reach the
// CLI); the verb's options it leaves out are noted.
func (c *candidate) replaceWith(tp *toolPatch) []string {
	var problems []string
	known := map[string]bool{}
	for _, p := range c.cmd.Params {
		for _, o := range append(slices.Clone(p.Opts), p.Secondary...) {
			known[o] = true
		}
	}
	isOpt := func(where, o string) {
		if !known[o] {
			problems = append(problems, fmt.Sprintf("%s.%s: %q is not an option of %s", tp.where, where, o, strings.Join(c.path, " ")))
		}
	}
	body := deepCopy(tp.body).(map[string]any)
	words, _ := body["command"].([]any)
	for i, w := range words[len(c.path):] {
		isOpt(fmt.Sprintf("command[%d]", len(c.path)+i), w.(string))
	}
	used := map[string]bool{}
	ps := &params{hidden: map[string]bool{}}
	list, _ := body["params"].([]any)
	for i, raw := range list {
		p, ok := raw.(map[string]any)
		if !ok {
			continue // the loader names it
		}
		for _, k := range []string{"flag", "negate"} {
			if f, ok := p[k].(string); ok && p["global"] != true {
				isOpt(fmt.Sprintf("params[%d].%s", i, k), f)
				used[f] = true
			}
		}
		ps.list = append(ps.list, p)
	}
	delete(body, "params")
	if conf, ok := body["confirm"].(map[string]any); ok {
		if f, ok := conf["flag"].(string); ok {
			isOpt("confirm.flag", f)
			used[f] = true
		}
	}
	for _, w := range words {
		used[w.(string)] = true
	}
	var unused []string
	for _, p := range c.cmd.Params {
		if p.Kind == "option" && !p.Hidden && !p.Eager && !slices.ContainsFunc(append(slices.Clone(p.Opts), p.Secondary...), func(o string) bool { return used[o] }) {
			unused = append(unused, longOpt(p.Opts))
		}
	}
	if len(unused) > 0 {
		c.notes = append(c.notes, fmt.Sprintf("%s: the overrides' tool does not offer the CLI's %s", tp.pattern, strings.Join(unused, ", ")))
	}
	c.name, c.tool, c.params, c.whole = tp.pattern, body, ps, true
	c.leftOut = ""
	if tp.hidden != nil && *tp.hidden {
		c.leftOut = "hidden by the overrides"
	}
	return problems
}

// nearest suggests generated names sharing the longest prefix with a
// pattern that matched none: most such patterns are typos.
func nearest(pattern string, cands []*candidate) string {
	best, n := []string{}, 0
	for _, c := range cands {
		k := 0
		for k < len(pattern) && k < len(c.name) && pattern[k] == c.name[k] {
			k++
		}
		switch {
		case k > n:
			best, n = []string{c.name}, k
		case k == n && k > 0:
			best = append(best, c.name)
		}
	}
	if n < 3 {
		return ""
	}
	slices.Sort(best)
	if len(best) > 5 {
		best = append(best[:5], "…")
	}
	return " (nearest: " + strings.Join(best, ", ") + ")"
}

func noParam(cs []*candidate, name string) string {
	if len(cs) == 1 {
		return fmt.Sprintf("%s has no param %q", cs[0].name, name)
	}
	return fmt.Sprintf("none of the %d tools it names has a param %q", len(cs), name)
}

func paramNames(cs []*candidate) string {
	var out []string
	for _, c := range cs {
		for _, p := range c.params.list {
			if n := p["name"].(string); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	if len(out) == 0 {
		return "it has no params"
	}
	slices.Sort(out)
	return "params: " + strings.Join(out, ", ")
}
