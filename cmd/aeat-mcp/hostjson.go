package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"
)

// mergeEntry puts entry (JSON) under doc[key][name] and returns the new
// document. It edits the document's syntax tree in place, so every byte
// outside the entry it writes — other keys and servers, their order,
// whitespace, and in a JSONC file the comments and trailing commas — stays
// as it was. changed is false when the entry is already there (as JSON
// values: key order and spacing do not count).
//
// It refuses, with an error that says the file was not changed: a document
// that is not an object; a key that is not an object; a name given twice
// at the top level or among the servers (a merge would silently drop one);
// and, unless jsonc, comments or trailing commas — the host reads strict
// JSON, so such a file is already broken for it and is not ours to fix.
// An empty (or blank) document is a new one.
func mergeEntry(doc []byte, key, name string, entry []byte, jsonc bool) (out []byte, changed bool, err error) {
	fresh := len(bytes.TrimSpace(doc)) == 0
	if fresh {
		doc = []byte("{}\n")
	}
	root, err := hujson.Parse(doc)
	if err != nil {
		return nil, false, fmt.Errorf("it is not JSON (%v)", err)
	}
	if !jsonc && !root.IsStandard() {
		return nil, false, errors.New("it has comments or trailing commas, which this host does not read")
	}
	top, ok := root.Value.(*hujson.Object)
	if !ok {
		return nil, false, errors.New("it is not a JSON object")
	}
	if dup := duplicateName(top); dup != "" {
		return nil, false, fmt.Errorf("the key %q appears twice: a merge would keep only one of them", dup)
	}
	step := indentStep(top)
	servers := member(top, key)
	if servers != nil {
		obj, ok := servers.Value.(*hujson.Object)
		if !ok {
			return nil, false, fmt.Errorf("%q is not an object", key)
		}
		if dup := duplicateName(obj); dup != "" {
			return nil, false, fmt.Errorf("the server %q appears twice under %q: a merge would keep only one of them", dup, key)
		}
		if have := member(obj, name); have != nil {
			if sameJSON(have.Pack(), entry) {
				return doc, false, nil
			}
			indent, multiline := lineIndent(memberOf(obj, name).Name.BeforeExtra)
			v, err := valueText(entry, indent, step, multiline)
			if err != nil {
				return nil, false, err
			}
			have.Value = v.Value
		} else if err := appendMember(obj, name, entry, memberIndent(top, step), step); err != nil {
			return nil, false, err
		}
	} else {
		wrapped, err := json.Marshal(map[string]json.RawMessage{name: entry})
		if err != nil {
			return nil, false, err
		}
		if err := appendMember(top, key, wrapped, "", step); err != nil {
			return nil, false, err
		}
	}
	if fresh {
		root.AfterExtra = hujson.Extra("\n")
	}
	out = root.Pack()
	// The edit must leave a document the host reads, with the entry in it.
	check, err := hujson.Parse(out)
	if err != nil || (!jsonc && !check.IsStandard()) {
		return nil, false, fmt.Errorf("internal error: the merged file would not parse (%v)", err)
	}
	return out, true, nil
}

// member is the value of obj's member called name, or nil.
func member(obj *hujson.Object, name string) *hujson.Value {
	if m := memberOf(obj, name); m != nil {
		return &m.Value
	}
	return nil
}

func memberOf(obj *hujson.Object, name string) *hujson.ObjectMember {
	for i := range obj.Members {
		if memberName(obj.Members[i]) == name {
			return &obj.Members[i]
		}
	}
	return nil
}

func memberName(m hujson.ObjectMember) string {
	if lit, ok := m.Name.Value.(hujson.Literal); ok {
		return lit.String()
	}
	return ""
}

// duplicateName is a name obj holds twice (as decoded, so "a" and "\u0061"
// are the same name), or "".
func duplicateName(obj *hujson.Object) string {
	seen := map[string]bool{}
	for _, m := range obj.Members {
		n := memberName(m)
		if seen[n] {
			return n
		}
		seen[n] = true
	}
	return ""
}

// lineIndent is the indentation a member's leading extra leaves on its line,
// and whether the member starts a line at all (a one-line object does not).
func lineIndent(before hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(before, '\n')
	if i < 0 {
		return "", false
	}
	return string(before[i+1:]), true
}

// indentStep is one level of the document's indentation: its first member's
// own, when it has one, else two spaces.
func indentStep(top *hujson.Object) string {
	if len(top.Members) > 0 {
		if ind, ok := lineIndent(top.Members[0].Name.BeforeExtra); ok && ind != "" {
			return ind
		}
	}
	return "  "
}

// memberIndent is the indentation of obj's members (obj being a member of
// the top level), for an object that may have none yet.
func memberIndent(top *hujson.Object, step string) string {
	if len(top.Members) > 0 {
		if ind, ok := lineIndent(top.Members[0].Name.BeforeExtra); ok {
			return ind
		}
	}
	return ""
}

// appendMember adds name: value as obj's last member, laid out like its
// siblings: on a line of its own at their indentation (the comments after
// the former last member stay on that member's line), or inline in a
// one-line object. ownIndent is the indentation of obj's closing brace when
// obj is empty; step is one level more.
func appendMember(obj *hujson.Object, name string, value []byte, ownIndent, step string) error {
	var m hujson.ObjectMember
	m.Name.Value = hujson.String(name)
	if len(obj.Members) == 0 {
		indent := ownIndent + step
		v, err := valueText(value, indent, step, true)
		if err != nil {
			return err
		}
		m.Name.BeforeExtra = hujson.Extra("\n" + indent)
		m.Value = v
		m.Value.BeforeExtra = hujson.Extra(" ")
		// What was between the braces (a comment, say) stays before the
		// closing one, on its own line.
		rest := strings.TrimRight(string(obj.AfterExtra), " \t")
		if rest != "" && !strings.HasSuffix(rest, "\n") {
			rest += "\n"
		}
		if rest == "" {
			rest = "\n"
		}
		obj.AfterExtra = hujson.Extra(rest + ownIndent)
		obj.Members = append(obj.Members, m)
		return nil
	}
	last := &obj.Members[len(obj.Members)-1]
	indent, multiline := lineIndent(last.Name.BeforeExtra)
	v, err := valueText(value, indent, step, multiline)
	if err != nil {
		return err
	}
	m.Value = v
	m.Value.BeforeExtra = append(hujson.Extra(nil), last.Value.BeforeExtra...)
	if multiline {
		// The former closing extra: what ends the last member's line (its
		// comment, the newline) goes before the new member; the closing
		// brace keeps its own indentation.
		after := obj.AfterExtra
		head, tail := after, hujson.Extra(nil)
		if i := bytes.LastIndexByte(after, '\n'); i >= 0 {
			head, tail = after[:i], after[i+1:]
		}
		m.Name.BeforeExtra = hujson.Extra(string(head) + "\n" + indent)
		obj.AfterExtra = hujson.Extra("\n" + string(tail))
	} else {
		m.Name.BeforeExtra = append(hujson.Extra(nil), last.Name.BeforeExtra...)
	}
	if last.Value.AfterExtra != nil {
		// The object ends in a trailing comma: so does it still.
		m.Value.AfterExtra = hujson.Extra{}
	}
	obj.Members = append(obj.Members, m)
	return nil
}

// valueText lays a JSON value out for a member at indent: indented one step
// per level on lines of its own, or on one line.
func valueText(value []byte, indent, step string, multiline bool) (hujson.Value, error) {
	var b bytes.Buffer
	var err error
	if multiline {
		err = json.Indent(&b, value, indent, step)
	} else {
		err = json.Compact(&b, value)
	}
	if err != nil {
		return hujson.Value{}, err
	}
	return hujson.Parse(b.Bytes())
}

// sameJSON says whether two JSON (or JSONC) texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	a, errA := hujson.Standardize(bytes.Clone(a))
	b, errB := hujson.Standardize(bytes.Clone(b))
	return errA == nil && errB == nil &&
		json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
