package annotations

import (
	"fmt"
	"strings"
)

// SetGlobal makes a value the default of the shared param name (one of
// cli.params) in every tool: in its input schema, in what Validate fills in,
// and so on the command line of a call that leaves the param out. A call
// that gives the param still wins. texts are a person's words, parsed as
// call --arg parses them (one per element for an array), and the value is
// checked against the param's type and constraints here, once: a bad one is
// an error naming the param, and changes nothing. A sensitive param takes
// no default (the schema would show it to the model). A required shared param
// with a default is no longer required.
//
// It is how a host entry or a bundle pins a global such as the CLI's
// --profile or --lang (aeat-mcp --global NAME=VALUE).
//
// It writes into every tool's params, so on a manifest read from the
// cache it decodes every tool's detail at the start (BenchmarkLoadCachedWithGlobal:
// what a start with a --global costs beside one without).
func (m *Manifest) SetGlobal(name string, texts []string) error {
	i := -1
	for j := range m.CLI.Params {
		if m.CLI.Params[j].Name == name {
			i = j
		}
	}
	if i < 0 {
		return fmt.Errorf("%q is not a shared parameter of this manifest (cli.params: %s)", name, sharedNames(m.CLI.Params))
	}
	prm := m.CLI.Params[i]
	if prm.Sensitive {
		// A default is part of the input schema every host shows the model.
		return fmt.Errorf("%s is sensitive: a default would be shown to the model in every tool's input schema", name)
	}
	var v any
	for _, text := range texts {
		var err error
		if v, err = prm.Parse(text, v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if v == nil {
		return fmt.Errorf("%s: no value", name)
	}
	if err := prm.check(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	set := func(p *Param) { p.Default, p.Required = v, false }
	set(&m.CLI.Params[i])
	// Every tool's schema is rebuilt below, and DetailErr reads each one's
	// section of the cache file: read them all now, through one open of
	// the file — not one open per tool, nor, after a spoilt tool's detail
	// has removed the file, each of the tools after it built from the
	// head (cache_listing.go).
	ReadListings(m.Tools)
	for _, t := range m.Tools {
		if t.DetailErr() != nil {
			continue // no params to default: its calls are refused
		}
		// Shared params come first in every tool, in cli.params' order.
		set(&t.Params()[i])
		if err := t.buildSchema(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func sharedNames(ps []Param) string {
	if len(ps) == 0 {
		return "none"
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}
