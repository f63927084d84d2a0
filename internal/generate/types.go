package generate

// paramType is what one of the CLI's type names becomes in a manifest —
// one table entry per type, so that a new type is one entry. The names are those of the command
// tree: Click's (as commands.json and the click walker write them) and
// pflag's (as the cobra walker maps them).
type paramType struct {
	// manifest is the param type: string, integer, number or boolean.
	manifest string
	// pattern, if set, is what every value must match (a Go duration).
	pattern string
}

// durationPattern is what Go's time.ParseDuration accepts (pflag's
// duration flags): "90s", "1h30m", "1.5h", "-2m".
const durationPattern = `^(0|[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

var paramTypes = table[paramType]{
	{"str", paramType{manifest: "string"}},
	{"string", paramType{manifest: "string"}},
	{"text", paramType{manifest: "string"}},
	{"choice", paramType{manifest: "string"}},
	{"path", paramType{manifest: "string"}},
	{"file", paramType{manifest: "string"}},
	{"filename", paramType{manifest: "string"}},
	{"directory", paramType{manifest: "string"}},
	{"function", paramType{manifest: "string"}}, // a custom converter: the CLI checks the text
	{"uuid", paramType{manifest: "string"}},
	{"datetime", paramType{manifest: "string"}},
	{"int", paramType{manifest: "integer"}},
	{"integer", paramType{manifest: "integer"}},
	{"int range", paramType{manifest: "integer"}},
	{"integer range", paramType{manifest: "integer"}},
	{"float", paramType{manifest: "number"}},
	{"number", paramType{manifest: "number"}},
	{"float range", paramType{manifest: "number"}},
	{"boolean", paramType{manifest: "boolean"}},
	{"bool", paramType{manifest: "boolean"}},
	{"duration", paramType{manifest: "string", pattern: durationPattern}},
}

// confirmOpts are the options by which a CLI takes its own "yes, do it",
// best first: such an option becomes the tool's confirm flag, added only
// after a person said yes, never a param the model could set.
var confirmOpts = []string{"--yes", "--assume-yes", "--confirm", "-y"}

// formatNames are the global options that choose the CLI's output format;
// one offering json is set to json for every call (cli.args), and every
// tool's output is then json.
var formatNames = []string{"--format", "--output-format", "--output"}
