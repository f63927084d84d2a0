package main

import (
	"fmt"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
)

// bundleLangEnv is where the MCP Bundle passes its free-text Language
// setting for the CLI (packaging/mcpb/manifest.json; the same setting
// reaches aeat-mcp's own messages as AEAT_MCP_LANG, which already reads any
// spelling and falls back). It is not AEAT_MCP_GLOBAL_LANG because a bad
// --global, or its variable, is a usage error (docs/commands.md) — right
// for what a person typed on a command line, fatal for a form field: a
// server that exits at start shows only "Server disconnected" (DESIGN.md
// §5: the server starts, and what is wrong is said). So this one is
// forgiving: read as a person would mean it, and when it names no
// language the CLI offers, logged and left out.
const bundleLangEnv = "AEAT_MCP_BUNDLE_LANG"

// bundleLangParam is the shared param the bundle's language sets.
const bundleLangParam = "lang"

// applyBundleLang makes AEAT_MCP_BUNDLE_LANG the default of the manifest's
// shared lang param — as given in lower case ("ES"), else the language it
// names ("es-ES", "es_ES.UTF-8") — unless --global or AEAT_MCP_GLOBAL_LANG
// set it. What could not be used is returned, for the log.
func (o *options) applyBundleLang(m *annotations.Manifest) (note string) {
	v, _ := o.sys.lookupEnv(bundleLangEnv)
	value := strings.TrimSpace(v)
	if value == "" || o.globalGiven(bundleLangParam) {
		return ""
	}
	var name string
	for _, p := range m.CLI.Params {
		if strings.EqualFold(p.Name, bundleLangParam) {
			name = p.Name
		}
	}
	if name == "" {
		return fmt.Sprintf("%s=%s: the manifest has no shared %s param (cli.params): left out", bundleLangEnv, value, bundleLangParam)
	}
	candidates := []string{strings.ToLower(value)}
	if base, ok := i18n.Base(value); ok {
		candidates = append(candidates, base)
	}
	var err error
	for _, c := range candidates {
		if err = m.SetGlobal(name, []string{c}); err == nil {
			return ""
		}
	}
	return fmt.Sprintf("%s=%s: %v — left out: the CLI answers in its own default language", bundleLangEnv, value, err)
}

// globalGiven reports whether --global or an AEAT_MCP_GLOBAL_<NAME>
// variable set the shared param name (applyGlobals has run).
func (o *options) globalGiven(name string) bool {
	for _, kv := range append(o.globals, o.envGlobals...) {
		if n, _, _ := strings.Cut(kv, "="); strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}
