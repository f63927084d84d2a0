package main

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandsDoc is docs/commands.md's "Commands" section: the one place a
// reader finds every command and the shape of tools --json.
func commandsDoc(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../../docs/commands.md")
	require.NoError(t, err)
	s := string(raw)
	start, end := strings.Index(s, "## Commands\n"), strings.Index(s, "## Flags\n")
	require.True(t, start >= 0 && end > start, "docs/commands.md has a Commands section before Flags")
	return s[start:end]
}

// TestCommandsDoc_EveryCommand: every command the binary has is named in
// the first cell of a row of docs/commands.md's command table — a
// subcommand of a group by its whole path (`warm record`, `secret set`),
// as a person types it. serve alone is named in the prose above the table
// (it is what aeat-mcp with no subcommand does).
func TestCommandsDoc_EveryCommand(t *testing.T) {
	var cells strings.Builder
	for _, line := range strings.Split(commandsDoc(t), "\n") {
		if cell, ok := strings.CutPrefix(line, "| "); ok {
			first, _, _ := strings.Cut(cell, " |")
			cells.WriteString(first + "\n")
		}
	}
	doc := cells.String()
	root := newRootCmd(osSystem(0, "", nil))
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "serve" {
			continue
		}
		paths := []string{c.Name()}
		if c.HasSubCommands() {
			paths = nil
			for _, sub := range c.Commands() {
				if !sub.Hidden && sub.Name() != "help" {
					paths = append(paths, c.Name()+" "+sub.Name())
				}
			}
		}
		for _, p := range paths {
			assert.Contains(t, doc, "`"+p, "docs/commands.md does not name the command %q", p)
		}
	}
}

// TestCommandsDoc_ToolsJSONFields: every field tools --json prints is
// named in the tools row, which promises the shape ("fields are only ever
// added": an added one must be said).
func TestCommandsDoc_ToolsJSONFields(t *testing.T) {
	var row string
	for _, line := range strings.Split(commandsDoc(t), "\n") {
		if strings.HasPrefix(line, "| `tools ") {
			row = line
		}
	}
	require.NotEmpty(t, row, "docs/commands.md has a row for tools")
	for _, name := range jsonFields(reflect.TypeFor[toolsJSON](), map[reflect.Type]bool{}) {
		assert.Contains(t, row, "`"+name+"`", "tools --json prints %q; docs/commands.md's tools row does not name it", name)
	}
}

// jsonFields are the JSON names of typ's fields and of the structs they
// hold, each once. hints keeps MCP's own names, which the row points to
// as `hints`.
func jsonFields(typ reflect.Type, seen map[reflect.Type]bool) []string {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || seen[typ] || typ == reflect.TypeFor[hintsJSON]() {
		return nil
	}
	seen[typ] = true
	var names []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		names = append(names, name)
		names = append(names, jsonFields(f.Type, seen)...)
	}
	return names
}
