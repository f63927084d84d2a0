package main

import (
	"debug/elf"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBinary_NoTemplateExecution: nothing in the binary executes a
// text/template. A reachable Template.Execute (cobra's SetUsageTemplate,
// SetHelpTemplate or SetVersionTemplate; cobra's own defaults are plain
// functions) reaches reflect's Method by name, and the linker then keeps
// every exported method of every type that can reach an interface: 16,132
// functions and 20.9 MB where 11,789 and 17.5 MB do the same, every start
// paying for the larger binary's runtime tables before main.
func TestBinary_NoTemplateExecution(t *testing.T) {
	f, err := elf.Open(binaryPath(t))
	require.NoError(t, err)
	defer f.Close()
	syms, err := f.Symbols()
	require.NoError(t, err)
	for _, s := range syms {
		require.NotEqual(t, "text/template.(*Template).Execute", s.Name, "a template is executed: the linker keeps every exported method")
	}
}
