// Package demo is aeat-mcp's built-in demo: a manifest and a small fake of
// the aeat CLI, so `aeat-mcp --demo` works on a machine with nothing else
// installed. The fake CLI is aeat-mcp itself, re-executed as
// `aeat-mcp demo-cli …`; its data is made up and it never touches a network.
package demo

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

//go:embed demo.manifest.json
var manifest []byte

// Command is the subcommand that runs the demo CLI.
const Command = "demo-cli"

// Manifest returns the demo manifest. Its CLI is the running binary.
func Manifest() (*annotations.Manifest, error) {
	return annotations.Parse(manifest, "")
}

// Main runs the demo CLI with args (after "demo-cli") and returns its exit
// code.
func Main(args []string, stdout, stderr io.Writer) int {
	a := parseArgs(args)
	verb, ok := verbs[strings.Join(a.words, " ")]
	if !ok {
		fmt.Fprintf(stderr, "demo-cli: unknown verb %q\n", strings.Join(a.words, " "))
		return 2
	}
	out := json.NewEncoder(stdout)
	out.SetIndent("", "  ")
	verb(a, out, stdout, stderr)
	return 0
}

// args is a demo command line: the verb's words, its --flags (every value
// given, in order) and the arguments after "--".
type args struct {
	words, positional []string
	flags             map[string][]string
}

func parseArgs(argv []string) args {
	a := args{flags: map[string][]string{}}
	for i := 0; i < len(argv); i++ {
		arg := argv[i]
		switch {
		case arg == "--":
			a.positional = append(a.positional, argv[i+1:]...)
			i = len(argv)
		case strings.HasPrefix(arg, "--"):
			k, v, ok := strings.Cut(arg[2:], "=")
			if !ok && k == "format" && i+1 < len(argv) {
				i++
				v = argv[i]
			}
			a.flags[k] = append(a.flags[k], v)
		default:
			a.words = append(a.words, arg)
		}
	}
	return a
}

// first is the first value of flag k, or def.
func (a args) first(k, def string) string {
	if v := a.flags[k]; len(v) > 0 {
		return v[0]
	}
	return def
}

// verbs are the demo CLI's verbs: each writes what the real one would, to
// out (JSON), stdout and stderr.
var verbs = map[string]func(a args, out *json.Encoder, stdout, stderr io.Writer){
	"modelo 303 pull": func(a args, out *json.Encoder, _, stderr io.Writer) {
		nif := "B12345678"
		if len(a.positional) > 0 {
			nif = a.positional[0]
		}
		for _, step := range []string{"abriendo la sede electrónica", "identificando con el certificado", "buscando la declaración", "descargando el justificante"} {
			fmt.Fprintln(stderr, step+"…")
			time.Sleep(700 * time.Millisecond)
		}
		_ = out.Encode(map[string]any{"modelo": "303", "ejercicio": a.first("year", ""), "periodo": a.first("period", ""), "nif": nif,
			"base_imponible": 12000.00, "cuota_devengada": 2520.00, "cuota_deducible": 840.00, "resultado": 1680.00, "demo": true})
	},
	"modelo 390 pull": func(a args, out *json.Encoder, _, stderr io.Writer) {
		// A slow portal: about 75 s, longer than the ≈60 s after which
		// many hosts drop a call, so it shows detach-and-wait.
		steps := []string{"abriendo la sede electrónica", "identificando con el certificado", "consultando el censo",
			"buscando las autoliquidaciones del ejercicio", "descargando el primer trimestre", "descargando el segundo trimestre",
			"descargando el tercer trimestre", "descargando el cuarto trimestre", "cuadrando los importes", "generando el resumen anual"}
		for _, step := range steps {
			fmt.Fprintln(stderr, step+"…")
			time.Sleep(slowStep)
		}
		_ = out.Encode(map[string]any{"modelo": "390", "ejercicio": a.first("year", ""), "base_imponible": 48000.00,
			"cuota_devengada": 10080.00, "cuota_deducible": 3360.00, "resultado": 6720.00, "demo": true})
	},
	"portal hang": func(_ args, _ *json.Encoder, _, stderr io.Writer) {
		// A portal that never answers: aeat-mcp stops it at the tool's
		// timeout.
		fmt.Fprintln(stderr, "esperando a la sede…")
		for {
			time.Sleep(time.Second)
		}
	},
	"ledger list": func(a args, out *json.Encoder, _, _ io.Writer) {
		entries := []map[string]any{
			{"fecha": "2025-03-28", "concepto": "Factura 2025-041", "importe": 1210.00, "tags": []string{"venta", "iva21"}},
			{"fecha": "2025-03-15", "concepto": "Alquiler oficina", "importe": -605.00, "tags": []string{"gasto", "iva21"}},
			{"fecha": "2025-02-27", "concepto": "Factura 2025-032", "importe": 2420.00, "tags": []string{"venta", "iva21"}},
			{"fecha": "2025-02-03", "concepto": "Material", "importe": -121.00, "tags": []string{"gasto", "iva21"}},
		}
		var kept []map[string]any
		for _, e := range entries {
			if hasAll(e["tags"].([]string), a.flags["tag"]) {
				kept = append(kept, e)
			}
		}
		var limit int
		fmt.Sscan(a.first("limit", "10"), &limit)
		if limit < len(kept) {
			kept = kept[:limit]
		}
		_ = out.Encode(map[string]any{"entries": kept, "demo": true})
	},
	"profile show": func(_ args, _ *json.Encoder, stdout, _ io.Writer) {
		fmt.Fprintln(stdout, "perfil: demo\nnif: B12345678\ncertificado: CN=DEMO B12345678, caduca 2027-01-31")
		fmt.Fprintln(stdout, "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDdemo\n-----END PRIVATE KEY-----")
		fmt.Fprintln(stdout, "(aeat-mcp redacts the key above before the model sees it)")
	},
	"modelo 303 submit": func(a args, out *json.Encoder, _, stderr io.Writer) {
		fmt.Fprintln(stderr, "presentando…")
		time.Sleep(time.Second)
		_ = out.Encode(map[string]any{"presentado": true, "csv": "DEMO" + a.first("year", "") + a.first("period", "") + "XYZ", "demo": true})
	},
}

// slowStep is one step of the slow demo pull: ten make 75 s.
const slowStep = 7500 * time.Millisecond

func hasAll(tags, want []string) bool {
	for _, w := range want {
		found := false
		for _, t := range tags {
			found = found || t == w
		}
		if !found {
			return false
		}
	}
	return true
}

// IsDemoCLI reports whether args (os.Args[1:]) ask for the demo CLI.
func IsDemoCLI(args []string) bool { return len(args) > 0 && args[0] == Command }

// Run runs the demo CLI for os.Args and exits.
func Run() { os.Exit(Main(os.Args[2:], os.Stdout, os.Stderr)) }
