package annotations

// # A tool's detail
//
// Answering initialize and tools/list needs a tool's name, hints and
// listing (Cache.Listed); its params and the CLI's help are read by a
// call (Validate, the command line), aeat_mcp_find and doctor. A start
// from the manifest cache reads none of them — they are a part of the
// file after the head (cache_details.go), read at the first call — and
// decodes each tool's at its first use (lateDetail), so that the whole
// aeat starts like a few tools. A tool parsed from a manifest, or built in, has its
// detail from the start; both are read through the same accessors.

// toolDetail is the part of a Tool decoded at its first use.
type toolDetail struct {
	// CLIHelp is the CLI's own help for the verb, by language tag
	// (cli_help, written by aeat-mcp generate --help-texts): what
	// aeat_mcp_find searches besides the tool's own words, so that a
	// request finds the verb in any language the CLI speaks. Never sent to
	// hosts; nil when the manifest gives none.
	CLIHelp map[string]string
	// Params are the cli's shared params (Shared) followed by the tool's
	// own, in declaration order.
	Params []Param
	byName map[string]*Param
}

// Params are the cli's shared params (Shared) followed by the tool's own,
// in declaration order. Nothing may change them but SetGlobal.
func (t *Tool) Params() []Param { return t.details().Params }

// CLIHelp is the CLI's own help for the verb, by language tag (cli_help,
// written by aeat-mcp generate --help-texts): what aeat_mcp_find searches
// besides the tool's own words, so that a request finds the verb in any
// language the CLI speaks. Never sent to hosts; nil when the manifest
// gives none.
func (t *Tool) CLIHelp() map[string]string { return t.details().CLIHelp }

// details is the tool's detail, decoded from the cache file at the first
// call (safe from any number of goroutines at once).
func (t *Tool) details() *toolDetail {
	if t.late != nil {
		t.lateOnce.Do(func() { t.late.decode(t) })
	}
	return &t.detail
}

// index builds the params by name.
func (d *toolDetail) index() {
	d.byName = make(map[string]*Param, len(d.Params))
	for i := range d.Params {
		d.byName[d.Params[i].Name] = &d.Params[i]
	}
}

// WithDetail gives t, a tool built by hand (in a test), the params and the
// CLI's help a manifest would give it, and returns it. A loaded tool has
// its own.
func (t *Tool) WithDetail(cliHelp map[string]string, params ...Param) *Tool {
	t.detail = toolDetail{CLIHelp: cliHelp, Params: params}
	t.detail.index()
	return t
}
