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
	var words, positional []string
	flags := map[string][]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			k, v, ok := strings.Cut(a[2:], "=")
			if !ok && k == "format" && i+1 < len(args) {
				i++
				v = args[i]
			}
			flags[k] = append(flags[k], v)
		default:
			words = append(words, a)
		}
	}
	first := func(k, def string) string {
		if v := flags[k]; len(v) > 0 {
			return v[0]
		}
		return def
	}
	out := json.NewEncoder(stdout)
	out.SetIndent("", "  ")
	switch strings.Join(words, " ") {
	case "modelo 303 pull":
		nif := "B12345678"
		if len(positional) > 0 {
			nif = positional[0]
		}
		for _, step := range []string{"abriendo la sede electrónica", "identificando con el certificado", "buscando la declaración", "descargando el justificante"} {
			fmt.Fprintln(stderr, step+"…")
			time.Sleep(700 * time.Millisecond)
		}
		_ = out.Encode(map[string]any{"modelo": "303", "ejercicio": first("year", ""), "periodo": first("period", ""), "nif": nif,
			"base_imponible": 12000.00, "cuota_devengada": 2520.00, "cuota_deducible": 840.00, "resultado": 1680.00, "demo": true})
	case "modelo 390 pull":
		// A slow portal: about 75 s, longer than the ≈60 s after which
		// many hosts drop a call, so it shows detach-and-wait.
		steps := []string{"abriendo la sede electrónica", "identificando con el certificado", "consultando el censo",
			"buscando las autoliquidaciones del ejercicio", "descargando el primer trimestre", "descargando el segundo trimestre",
			"descargando el tercer trimestre", "descargando el cuarto trimestre", "cuadrando los importes", "generando el resumen anual"}
		for _, step := range steps {
			fmt.Fprintln(stderr, step+"…")
			time.Sleep(slowStep)
		}
		_ = out.Encode(map[string]any{"modelo": "390", "ejercicio": first("year", ""), "base_imponible": 48000.00,
			"cuota_devengada": 10080.00, "cuota_deducible": 3360.00, "resultado": 6720.00, "demo": true})
	case "portal hang":
		// A portal that never answers: aeat-mcp stops it at the tool's
		// timeout.
		fmt.Fprintln(stderr, "esperando a la sede…")
		for {
			time.Sleep(time.Second)
		}
	case "ledger list":
		entries := []map[string]any{
			{"fecha": "2025-03-28", "concepto": "Factura 2025-041", "importe": 1210.00, "tags": []string{"venta", "iva21"}},
			{"fecha": "2025-03-15", "concepto": "Alquiler oficina", "importe": -605.00, "tags": []string{"gasto", "iva21"}},
			{"fecha": "2025-02-27", "concepto": "Factura 2025-032", "importe": 2420.00, "tags": []string{"venta", "iva21"}},
			{"fecha": "2025-02-03", "concepto": "Material", "importe": -121.00, "tags": []string{"gasto", "iva21"}},
		}
		var kept []map[string]any
		for _, e := range entries {
			if hasAll(e["tags"].([]string), flags["tag"]) {
				kept = append(kept, e)
			}
		}
		var limit int
		fmt.Sscan(first("limit", "10"), &limit)
		if limit < len(kept) {
			kept = kept[:limit]
		}
		_ = out.Encode(map[string]any{"entries": kept, "demo": true})
	case "profile show":
		fmt.Fprintln(stdout, "perfil: demo\nnif: B12345678\ncertificado: CN=DEMO B12345678, caduca 2027-01-31")
		fmt.Fprintln(stdout, "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDdemo\n-----END PRIVATE KEY-----")
		fmt.Fprintln(stdout, "(aeat-mcp redacts the key above before the model sees it)")
	case "modelo 303 submit":
		fmt.Fprintln(stderr, "presentando…")
		time.Sleep(time.Second)
		_ = out.Encode(map[string]any{"presentado": true, "csv": "DEMO" + first("year", "") + first("period", "") + "XYZ", "demo": true})
	default:
		fmt.Fprintf(stderr, "demo-cli: unknown verb %q\n", strings.Join(words, " "))
		return 2
	}
	return 0
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
