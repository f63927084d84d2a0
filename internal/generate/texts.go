package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Texts are a CLI's own help texts in the languages it speaks, for a tree
// that has none (commands.json holds no help): the format of the real
// aeat's testdata/aeat-cli/help.json, which scripts/capture-aeat-help
// writes from Click walks of the CLI, one per language. Every other key
// (where each text came from) is for people and ignored here.
//
// The first language's texts are the verbs' and params' help where the
// tree has none — so they become titles and descriptions as a walk's
// would —, and each verb's help in every language goes to its tool's
// cli_help, which aeat_mcp_find searches: a request then finds the verb
// in any language the CLI speaks.
type Texts struct {
	// Languages are the texts' languages, the first one the manifest's.
	Languages []string
	byPath    map[string]*textsCommand
}

type textsCommand struct {
	Path   []string          `json:"path"`
	Help   map[string]string `json:"help"`
	Params []struct {
		Name string            `json:"name"`
		Help map[string]string `json:"help"`
	} `json:"params"`
}

// ParseTexts reads a texts file, checking what a generation relies on:
// the languages named, each command's path given once, and every help in
// a named language.
func ParseTexts(data []byte) (*Texts, error) {
	var doc struct {
		Meta struct {
			Languages []string `json:"languages"`
		} `json:"meta"`
		Commands []*textsCommand `json:"commands"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a texts file (meta.languages and commands with path and help): %w", err)
	}
	tx := &Texts{Languages: doc.Meta.Languages, byPath: map[string]*textsCommand{}}
	if len(tx.Languages) == 0 {
		return nil, fmt.Errorf("meta.languages is empty: name the texts' languages, the manifest's first")
	}
	known := map[string]bool{}
	for _, l := range tx.Languages {
		known[l] = true
	}
	var problems []string
	unknown := func(where string, help map[string]string) {
		for l := range help {
			if !known[l] {
				problems = append(problems, fmt.Sprintf("%s: language %q is not in meta.languages", where, l))
			}
		}
	}
	for i, c := range doc.Commands {
		key := strings.Join(c.Path, " ")
		switch {
		case len(c.Path) == 0:
			problems = append(problems, fmt.Sprintf("commands[%d]: no path", i))
		case tx.byPath[key] != nil:
			problems = append(problems, fmt.Sprintf("commands[%d]: %q is given twice", i, key))
		}
		unknown(fmt.Sprintf("commands[%d] %q", i, key), c.Help)
		for _, p := range c.Params {
			unknown(fmt.Sprintf("commands[%d] %q param %s", i, key, p.Name), p.Help)
		}
		tx.byPath[key] = c
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("texts: %s", strings.Join(problems, "; "))
	}
	return tx, nil
}

// fill is the tree with the first language's help wherever a command or
// a param has none of its own (the tree's own help wins); notes name the
// texts of commands the tree does not have.
func (tx *Texts) fill(tree []Command, notes *[]string) []Command {
	lang := tx.Languages[0]
	out := make([]Command, len(tree))
	used := map[string]bool{}
	for i, c := range tree {
		tc := tx.byPath[strings.Join(c.Path, " ")]
		if tc == nil || len(c.Path) == 0 {
			out[i] = c
			continue
		}
		used[strings.Join(c.Path, " ")] = true
		if c.Help == "" && c.ShortHelp == "" {
			c.Help = tc.Help[lang]
		}
		c.Params = append([]Param(nil), c.Params...)
		for j := range c.Params {
			for _, tp := range tc.Params {
				if tp.Name == c.Params[j].Name && c.Params[j].Help == "" {
					c.Params[j].Help = tp.Help[lang]
				}
			}
		}
		out[i] = c
	}
	var unused []string
	for _, key := range slices.Sorted(maps.Keys(tx.byPath)) {
		if !used[key] {
			unused = append(unused, key)
		}
	}
	if len(unused) > 0 {
		*notes = append(*notes, "help texts of commands the tree does not have: "+strings.Join(unused, ", "))
	}
	return out
}

// apply gives each tool its verb's help in every language (cli_help),
// cleaned as a description is, unless an override gave the tool its own.
func (tx *Texts) apply(cands []*candidate) {
	for _, c := range cands {
		tc := tx.byPath[strings.Join(c.cmd.Path, " ")]
		if _, own := c.tool["cli_help"]; tc == nil || own {
			continue
		}
		help := map[string]any{}
		for _, l := range tx.Languages {
			if h := cleanHelp(tc.Help[l]); h != "" {
				help[l] = h
			}
		}
		if len(help) > 0 {
			c.tool["cli_help"] = help
		}
	}
}
