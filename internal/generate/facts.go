package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// Facts are what is known of a CLI beyond its command tree, read from its
// source: which verbs reach the network, which run without a login, which
// print a result and still exit non-zero, what their --secrets-stdin reads,
// and the rules between their options. The format is that of the real
// aeat's facts.json (../shared/aeat-cli/facts.md documents it); Facts holds
// the parts a generation applies, and every other key is ignored.
//
// Facts are applied to what was generated before the overrides: a person's
// override still wins, and a generation from a newer tree and newer facts
// stays true without anyone rewriting descriptions by hand.
type Facts struct {
	// Network says, per group of verbs, whether they touch the network:
	// true, false or "conditional", and what they do there. A path of
	// "(all other verbs)" is the catch-all.
	Network []struct {
		Path    string `json:"path"`
		Network any    `json:"network"`
		What    string `json:"what"`
	} `json:"network"`
	Login struct {
		// ExemptLeafPaths run without a login session.
		ExemptLeafPaths       []string `json:"exempt_leaf_paths"`
		ConditionalExemptions []struct {
			Path string `json:"path"`
			When string `json:"when"`
		} `json:"conditional_exemptions"`
		// Refusal.Suggestion is the CLI's own remedy ("aeat config login").
		Refusal struct {
			Suggestion string `json:"suggestion"`
		} `json:"refusal"`
	} `json:"login"`
	ExitCodes struct {
		Exit1AfterSuccess []verbWhen `json:"exit1_after_success_envelope"`
	} `json:"exit_codes"`
	Exit2WithSuccess struct {
		Verbs []verbWhen `json:"verbs"`
	} `json:"exit2_with_success"`
	Stdin struct {
		Verbs []struct {
			Path  string            `json:"path"`
			Flag  string            `json:"flag"`
			Shape map[string]string `json:"shape"`
		} `json:"verbs"`
	} `json:"stdin"`
	CrossField struct {
		Rules []Rule `json:"rules"`
	} `json:"cross_field"`
}

type verbWhen struct {
	Path string `json:"path"`
	When string `json:"when"`
}

// Rule is one rule between a verb's options, as facts.json writes it: an
// object of if, if_absent, if_any, requires, together, excludes,
// mutually_exclusive, exactly_one_of, value_range, unless, order… whose
// values name options ("--year") and arguments ("TRANSACTION_ID").
type Rule struct {
	Path string         `json:"path"`
	Rule map[string]any `json:"rule"`
	Note string         `json:"note"`
}

// ParseFacts reads a facts file.
func ParseFacts(data []byte) (*Facts, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var f Facts
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a facts file (the format of aeat's facts.json): %w", err)
	}
	return &f, nil
}

// network is what the facts say of one verb's network use: "true",
// "false", "conditional", or "" when they say nothing; what it does there;
// and whether only the catch-all said it.
type network struct {
	value, what string
	catchAll    bool
}

// networkOf reads the facts' network entries for every verb of verbs;
// notes name the alternatives that name no verb.
func (f *Facts) networkOf(verbs map[string]bool, notes *[]string) map[string]network {
	out := map[string]network{}
	var rest *network
	for _, n := range f.Network {
		v := network{value: fmt.Sprint(n.Network), what: n.What}
		if strings.HasPrefix(n.Path, "(all other") {
			v.catchAll = true
			rest = &v
			continue
		}
		paths, missed := expandPaths(n.Path, verbs)
		if len(missed) > 0 {
			*notes = append(*notes, fmt.Sprintf("facts: network %q: %s names no verb of the tree", n.Path, strings.Join(missed, ", ")))
		}
		for _, p := range paths {
			if _, seen := out[p]; !seen {
				out[p] = v
			}
		}
	}
	if rest != nil {
		for p := range verbs {
			if _, ok := out[p]; !ok {
				out[p] = *rest
			}
		}
	}
	return out
}

// expandPaths reads a facts network path — groups separated by ", ",
// alternatives by "|", options after a verb ignored: "app live filed pull
// | pull-all | list" is three verbs; "app live notifications list|view,
// expedientes list, borrador 100 list" names verbs of app live; "app
// ledger classify --llm | split --llm" names classify and split. The first
// alternative is a full path; each later one replaces the last words of
// the path before it — as many as make a verb of the tree, trying its own
// length first: "borrador 100 list" after "app live deudas latest" is "app
// live borrador 100 list". An alternative that makes no verb is missed.
func expandPaths(s string, verbs map[string]bool) (out, missed []string) {
	var ref []string
	for _, group := range strings.Split(s, ", ") {
		for _, alt := range strings.Split(group, "|") {
			var words []string
			for _, w := range strings.Fields(alt) {
				if strings.HasPrefix(w, "-") {
					break
				}
				words = append(words, w)
			}
			if len(words) == 0 {
				continue
			}
			full := resolvePath(ref, words, verbs)
			if full == nil {
				missed = append(missed, strings.TrimSpace(alt))
				continue
			}
			ref = full
			out = append(out, strings.Join(full, " "))
		}
	}
	return out, missed
}

func resolvePath(ref, words []string, verbs map[string]bool) []string {
	if ref == nil {
		if verbs[strings.Join(words, " ")] {
			return words
		}
		return nil
	}
	for _, k := range append([]int{len(words)}, upTo(len(ref))...) {
		if k > len(ref) {
			continue
		}
		full := append(slices.Clone(ref[:len(ref)-k]), words...)
		if verbs[strings.Join(full, " ")] {
			return full
		}
	}
	return nil
}

// upTo is 1, 2, … n.
func upTo(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// apply applies the facts to every verb: hints and the description
// from its network use, the login it needs, the exits that still carry a
// result, the secrets it reads on stdin, and the rules between its
// options. program is the CLI's name, as the sentences say it.
func (f *Facts) apply(cands []*candidate, program string, notes *[]string) {
	verbs := map[string]bool{}
	byPath := map[string]*candidate{}
	for _, c := range cands {
		p := strings.Join(c.path, " ")
		verbs[p], byPath[p] = true, c
	}
	nets := f.networkOf(verbs, notes)
	for _, c := range cands {
		path := strings.Join(c.path, " ")
		var say []string
		say = append(say, c.applyNetwork(nets[path], notes)...)
		say = append(say, f.loginSentence(path, program))
		if s := c.applyStdin(f, path, program, notes); s != "" {
			say = append(say, s)
		}
		c.applyExits(f, path)
		say = append(say, c.applyRules(f.rulesOf(path))...)
		if say = nonEmpty(say); len(say) > 0 {
			c.tool["description"] = strings.TrimSpace(sentence(c.tool["description"].(string)) + " " + strings.Join(say, " "))
		}
	}
	var unused []string
	for _, r := range f.CrossField.Rules {
		if byPath[r.Path] == nil && !slices.Contains(unused, r.Path) {
			unused = append(unused, r.Path)
		}
	}
	if len(unused) > 0 {
		sort.Strings(unused)
		*notes = append(*notes, "facts: rules of verbs the tree does not have: "+strings.Join(unused, ", "))
	}
}

// applyNetwork: a verb the facts show local is not open-world, whatever
// its family's classification says (only where the facts name the verb:
// the catch-all is no evidence against the CLI's word); one that reaches
// the network is open-world (the LIVE tier, never READ).
func (c *candidate) applyNetwork(n network, notes *[]string) []string {
	h := hintsOf(c.tool["annotations"])
	switch n.value {
	case "false":
		if h.OpenWorld && n.catchAll {
			return nil // the CLI says open-world; nothing here says otherwise
		}
		if h.OpenWorld {
			*notes = append(*notes, fmt.Sprintf("%s: not open-world: the facts show it local (%s), though its family is classified open-world", strings.Join(c.path, " "), n.what))
			h.OpenWorld = false
			c.setHints(h, hintOpenWorld)
			if c.floor != nil {
				c.floor.OpenWorld = false // the facts are the better evidence
			}
		}
		return []string{"Local: it does not reach the network."}
	case "true":
		if !h.OpenWorld {
			h.OpenWorld = true // the LIVE tier: never READ
			c.setHints(h, hintOpenWorld)
		}
		return []string{"Reaches the network: " + strings.TrimSuffix(n.what, ".") + "."}
	case "conditional":
		return []string{"May reach the network: " + strings.TrimSuffix(n.what, ".") + "."}
	}
	return nil
}

// setHints writes h and takes the hints the facts decided off hints_guessed.
func (c *candidate) setHints(h annotations.Hints, decided ...string) {
	c.tool["annotations"] = hintsJSON(h)
	set := map[string]any{}
	for _, d := range decided {
		set[d] = true
	}
	c.unguess(set)
}

func (f *Facts) loginSentence(path, program string) string {
	if slices.Contains(f.Login.ExemptLeafPaths, path) {
		return fmt.Sprintf("Runs without %s %s login.", article(program), program)
	}
	s := fmt.Sprintf("Needs the user's %s login session", program)
	if f.Login.Refusal.Suggestion != "" {
		s += fmt.Sprintf(" (`%s`)", f.Login.Refusal.Suggestion)
	}
	for _, e := range f.Login.ConditionalExemptions {
		if e.Path == path {
			s += ", except when " + strings.TrimSuffix(e.When, ".")
		}
	}
	return s + "."
}

// applyExits: a verb that prints its result and then exits 2 (or 1) with
// a verdict is a success when stdout holds the result.
func (c *candidate) applyExits(f *Facts, path string) {
	for _, e := range []struct {
		code string
		list []verbWhen
	}{{"2", f.Exit2WithSuccess.Verbs}, {"1", f.ExitCodes.Exit1AfterSuccess}} {
		for _, v := range e.list {
			if v.Path != path {
				continue
			}
			codes, _ := c.tool["exit_codes"].(map[string]any)
			if codes == nil {
				codes = map[string]any{}
				c.tool["exit_codes"] = codes
			}
			codes[e.code] = map[string]any{
				"meaning": "findings",
				"ok":      "with_stdout",
				"hint":    fmt.Sprintf("The command ran and printed its result, then exited %s because of what it found (%s): tell the user what the result says.", e.code, c.say(strings.TrimSuffix(v.When, "."))),
			}
		}
	}
}

// applyStdin: a verb that reads one secret as a JSON object on stdin
// (--secrets-stdin) gets it from the OS keychain, under a name of its own,
// never from the model; one that reads several is left out (no manifest
// key gives several secrets, and without them it asks at a console).
func (c *candidate) applyStdin(f *Facts, path, program string, notes *[]string) string {
	for _, v := range f.Stdin.Verbs {
		if v.Path != path {
			continue
		}
		keys := slices.Sorted(maps.Keys(v.Shape))
		if len(keys) != 1 {
			c.leftOut = "reads several secrets on stdin (" + strings.Join(keys, ", ") + "): run it in a terminal"
			return ""
		}
		name, ok := c.opts[v.Flag]
		if !ok {
			*notes = append(*notes, fmt.Sprintf("%s: the facts say it reads %s, which it does not have", path, v.Flag))
			return ""
		}
		c.params.hidden[name] = true
		c.tool["command"] = append(c.tool["command"].([]any), v.Flag)
		secret := strings.ToUpper(paramName(program + "_" + strings.Join(c.path, "_") + "_" + keys[0]))
		c.tool["stdin"] = map[string]any{"keychain": secret, "json_key": keys[0]}
		return fmt.Sprintf("Its %s comes from the OS keychain entry %s, never from you: the user stores it once with `aeat-mcp secret set %s`.", keys[0], secret, secret)
	}
	return ""
}

func (f *Facts) rulesOf(path string) []Rule {
	var out []Rule
	for _, r := range f.CrossField.Rules {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// article is "an" before a vowel, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

// sentence is s ending as a sentence does, so that another can follow: a
// CLI's help often has no final full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?:;…)") || strings.HasSuffix(s, "…") {
		return s
	}
	return s + "."
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
