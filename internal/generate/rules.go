package generate

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// applyRules expresses a verb's rules between options (facts cross_field)
// where a manifest can — requires, together (requires both ways), a
// required option, bounds, the CLI's own confirmation and the dry run that
// needs none — and says every rule but the confirmation in the
// description, in the param names the model uses: a model that cannot
// read a schema's dependentRequired still learns them, and a rule the
// manifest cannot say (excludes, exactly one of, an order) is said there
// only.
func (c *candidate) applyRules(rules []Rule) []string {
	var said []string
	for _, r := range rules {
		if s := c.applyRule(r); s != "" {
			said = append(said, s)
		}
	}
	if len(said) == 0 {
		return nil
	}
	return []string{"The CLI refuses a call that breaks one of its rules: " + strings.Join(said, "; ") + "."}
}

// conditionKeys are a rule's conditions, said first.
var conditionKeys = []string{"if", "if_absent", "if_any", "unless"}

// applyRule makes the params of c follow rule r where a manifest can say
// it (requires, minimum and maximum, the confirmation) and returns the
// sentence that says the rest ("" when nothing is left to say).
func (c *candidate) applyRule(r Rule) string {
	rl := r.Rule
	req := names(rl["requires"])
	_, reqIsList := rl["requires"].([]any)
	if reqIsList && len(req) > 0 && !slices.ContainsFunc(req, func(o string) bool { return !slices.Contains(confirmOpts, o) }) {
		return c.applyConfirmation(r, req[0])
	}
	c.requireTogether(names(rl["together"]))
	c.requireOnlyWith(rl)
	if reqIsList {
		c.requireListed(rl, req)
	}
	if vr, ok := rl["value_range"].(map[string]any); ok {
		for o, v := range vr {
			c.bound(o, v)
		}
	}
	return c.phrase(rl, r.Note)
}

// applyConfirmation: a rule that requires only the CLI's own "yes" (opt)
// is confirm.flag, which only a person's yes adds — skipped on a dry run
// (unless); what is left of the rule beyond its conditions is said.
func (c *candidate) applyConfirmation(r Rule, opt string) string {
	rl := r.Rule
	c.confirmWith(opt)
	if dry, ok := rl["unless"].(string); ok {
		if name, ok := c.opts[dry]; ok {
			c.tool["confirm"].(map[string]any)["skip_when"] = map[string]any{name: true}
		}
	}
	rest := maps.Clone(rl)
	delete(rest, "requires")
	delete(rest, "unless")
	if onlyConditions(rest) {
		return ""
	}
	return c.phrase(rest, r.Note)
}

// requireTogether: options given only together require each other.
func (c *candidate) requireTogether(tg []string) {
	for _, a := range tg {
		for _, b := range tg {
			if a != b {
				c.require(a, b)
			}
		}
	}
}

// requireOnlyWith: an option allowed only with another present (or
// exactly one of it) requires it.
func (c *candidate) requireOnlyWith(rl map[string]any) {
	only, ok := rl["only_with"].(map[string]any)
	if !ok {
		return
	}
	for _, trigger := range names(rl["if_any"]) {
		for o, want := range only {
			if want == "present" || want == "exactly one" {
				c.require(trigger, o)
			}
		}
	}
}

// requireListed: a list of options the CLI requires — when another option
// is given (if), or always (no condition at all).
func (c *candidate) requireListed(rl map[string]any, req []string) {
	if cond, ok := rl["if"].(string); ok {
		if _, isOpt := c.opts[cond]; isOpt {
			for _, o := range req {
				c.require(cond, o)
			}
		}
	}
	if !hasCondition(rl) {
		for _, o := range req {
			c.mustGive(o)
		}
	}
}

func onlyConditions(rl map[string]any) bool {
	for k := range rl {
		if !slices.Contains(conditionKeys, k) {
			return false
		}
	}
	return true
}

func hasCondition(rl map[string]any) bool {
	for _, k := range conditionKeys {
		if rl[k] != nil {
			return true
		}
	}
	return false
}

// confirmWith makes flag the tool's confirm flag (the generator already
// did, unless the CLI's option goes by another name) and the tool
// destructive: a person says yes.
func (c *candidate) confirmWith(flag string) {
	conf, _ := c.tool["confirm"].(map[string]any)
	if conf == nil {
		conf = map[string]any{"flag": flag}
		c.tool["confirm"] = conf
		h := hintsOf(c.tool["annotations"])
		h.ReadOnly, h.Destructive, h.Idempotent = false, true, false
		c.setHints(h, hintDestructive)
	}
}

// require makes the param of option a require that of option b, when the
// tool has both and b has no default (requiring a param that is always
// given says nothing, and the loader refuses it).
func (c *candidate) require(a, b string) {
	pa, pb := c.paramOf(a), c.paramOf(b)
	if pa == nil || pb == nil || pa["default"] != nil || pb["default"] != nil || pa["name"] == pb["name"] {
		return
	}
	list, _ := pa["requires"].([]any)
	if !slices.Contains(list, pb["name"]) {
		pa["requires"] = append(list, pb["name"])
	}
}

// mustGive makes the param of option o required (the CLI refuses a call
// without it; at a console it might ask, and there is none here).
func (c *candidate) mustGive(o string) {
	if p := c.paramOf(o); p != nil && p["default"] == nil {
		p["required"] = true
	}
}

// bound narrows a numeric param to the rule's range: [lo, hi], or ">0".
func (c *candidate) bound(o string, v any) {
	p := c.paramOf(o)
	if p == nil || p["type"] != "integer" && p["type"] != "number" {
		return
	}
	narrow := func(key string, n *big.Rat, tighter int) {
		if old, ok := p[key].(json.Number); ok {
			if r, ok := new(big.Rat).SetString(old.String()); ok && r.Cmp(n)*tighter >= 0 {
				return
			}
		}
		p[key] = json.Number(n.RatString())
		if !n.IsInt() {
			p[key] = json.Number(n.FloatString(6))
		}
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 2 {
			if lo, ok := rat(x[0]); ok {
				narrow("minimum", lo, +1)
			}
			if hi, ok := rat(x[1]); ok {
				narrow("maximum", hi, -1)
			}
		}
	case string:
		if x == ">0" && p["type"] == "integer" {
			narrow("minimum", big.NewRat(1, 1), +1)
		}
	}
}

func rat(v any) (*big.Rat, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(n.String())
}

// paramOf is the visible param the option or argument o gives, or nil.
func (c *candidate) paramOf(o string) map[string]any {
	name, ok := c.opts[o]
	if !ok || c.params.hidden[name] {
		return nil
	}
	return c.params.find(name)
}

// phrase says a rule in words, its conditions first, options and
// arguments by the names of the params the model gives.
func (c *candidate) phrase(rl map[string]any, note string) string {
	var cond, body []string
	for _, k := range conditionKeys {
		if v, ok := rl[k]; ok && k != "unless" {
			cond = append(cond, c.part(k, v))
		}
	}
	keys := make([]string, 0, len(rl))
	_, orderList := rl["order"].([]any)
	for k := range rl {
		if k == "relation" && orderList {
			continue // the order, said by the names
		}
		if !slices.Contains(conditionKeys, k) || k == "unless" {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		return rank(keys[i]) < rank(keys[j]) || rank(keys[i]) == rank(keys[j]) && keys[i] < keys[j]
	})
	for _, k := range keys {
		body = append(body, c.part(k, rl[k]))
	}
	s := strings.Join(body, ", ")
	if len(cond) > 0 {
		s = strings.Join(cond, ", ") + ": " + s
	}
	if note = sourceRef.Get().ReplaceAllString(note, ""); note != "" {
		s += " (" + c.say(strings.TrimSuffix(note, ".")) + ")"
	}
	return s
}

// sourceRef is a note's pointer into the CLI's source ("(line 147)"),
// which says nothing to a model.
var sourceRef = lazyre.New(`\s*\(line \d+\)`)

// bodyOrder is the order a rule's parts are said in.
var bodyOrder = []string{"requires", "requires_all", "requires_value", "requires_one_of", "only_with", "together",
	"excludes", "mutually_exclusive", "exactly_one_of", "at_least_one_of", "order", "relation", "value_range",
	"min_count", "count_equal", "forbidden_value", "implied", "interpreted_in", "target", "consistency", "unless"}

func rank(k string) int {
	if i := slices.Index(bodyOrder, k); i >= 0 {
		return i
	}
	return len(bodyOrder)
}

// part says one key of a rule.
func (c *candidate) part(k string, v any) string {
	list := func() string { return andList(c.sayAll(v), "and") }
	orList := func() string { return andList(c.sayAll(v), "or") }
	switch k {
	case "if":
		if c.isOption(v) {
			return "with " + c.sayValue(v)
		}
		return "when " + c.sayValue(v)
	case "if_absent":
		return "without " + c.sayValue(v)
	case "if_any":
		return "with any of " + orList()
	case "unless":
		return "unless " + c.sayValue(v)
	case "requires":
		if _, ok := v.([]any); ok {
			return "give " + list()
		}
		return "give " + c.sayValue(v)
	case "requires_all":
		return "give all of " + list()
	case "requires_one_of":
		return "give " + orList()
	case "together":
		return list() + " only together"
	case "excludes":
		return "not with " + orList()
	case "mutually_exclusive":
		return "not " + andList(c.sayAll(v), "together with")
	case "exactly_one_of":
		return "exactly one of " + orList()
	case "at_least_one_of":
		return "at least one of " + orList()
	case "order":
		if _, ok := v.([]any); ok {
			return andList(c.sayAll(v), "no later than")
		}
		return c.sayValue(v)
	case "target":
		return "the target is " + c.sayValue(v)
	case "relation", "consistency":
		return c.sayValue(v)
	}
	obj, _ := v.(map[string]any)
	var parts []string
	for _, o := range slices.Sorted(maps.Keys(obj)) {
		x := obj[o]
		switch k {
		case "requires_value":
			parts = append(parts, fmt.Sprintf("%s must be %s", c.say(o), c.sayValue(x)))
		case "only_with":
			switch x {
			case "present":
				parts = append(parts, c.say(o)+" given")
			case "absent":
				parts = append(parts, "no "+c.say(o))
			default:
				parts = append(parts, fmt.Sprintf("%s %s", c.sayValue(x), c.say(o)))
			}
		case "value_range":
			if r, ok := x.([]any); ok && len(r) == 2 {
				parts = append(parts, fmt.Sprintf("%s from %v to %v", c.say(o), r[0], r[1]))
			} else {
				parts = append(parts, c.say(o)+" "+c.sayValue(x))
			}
		case "min_count":
			parts = append(parts, fmt.Sprintf("at least %v %s", x, c.say(o)))
		case "forbidden_value":
			parts = append(parts, fmt.Sprintf("%s not %s", c.say(o), c.sayValue(x)))
		case "implied":
			parts = append(parts, fmt.Sprintf("%s implies %s", c.say(o), c.sayValue(x)))
		default:
			parts = append(parts, fmt.Sprintf("%s %s", c.say(o), c.sayValue(x)))
		}
	}
	switch k {
	case "count_equal":
		return "as many " + andList(c.sayAll(v), "as")
	case "interpreted_in":
		return "read within " + c.sayValue(v)
	case "requires_value", "only_with", "value_range", "min_count", "forbidden_value", "implied":
		return strings.Join(parts, ", ")
	}
	if len(parts) > 0 {
		return k + ": " + strings.Join(parts, ", ")
	}
	return k + ": " + c.sayValue(v)
}

// isOption reports whether v names an option or argument of the verb, or
// starts with one ("--llm --apply", "--saturate (without --llm)").
func (c *candidate) isOption(v any) bool {
	s, _ := v.(string)
	if strings.HasPrefix(s, "-") {
		return true
	}
	words := strings.Fields(s)
	if len(words) == 0 {
		return false
	}
	_, ok := c.opts[words[0]]
	return ok
}

// sayValue says a value of a rule: a string with its options named as
// params, a list, or anything else as JSON.
func (c *candidate) sayValue(v any) string {
	switch x := v.(type) {
	case string:
		return c.say(x)
	case []any:
		return andList(c.sayAll(x), "and")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// sayAll says each element of a list; a list inside it is a group of
// options that go together ("year_from with year_to").
func (c *candidate) sayAll(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if sub, ok := e.([]any); ok {
			out = append(out, andList(c.sayAll(sub), "with"))
			continue
		}
		out = append(out, c.sayValue(e))
	}
	return out
}

var optionRE = lazyre.New(`--[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]|\b[A-Z][A-Z0-9_]+\b`)

// say names the options and arguments in s ("--from-year", "WORK_UNIT_ID")
// by the params the model gives for them; others stay as written.
func (c *candidate) say(s string) string {
	return optionRE.Get().ReplaceAllStringFunc(s, func(o string) string {
		if name, ok := c.opts[o]; ok && !c.params.hidden[name] {
			return name
		}
		return o
	})
}

// andList joins "a", "a and b", "a, b and c" with word.
func andList(items []string, word string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + word + " " + items[len(items)-1]
}

// names reads a rule's list of options (or one option) as strings.
func names(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, names(e)...)
		}
		return out
	}
	return nil
}
