package main

import (
	"log/slog"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
)

// inspected is what tools, validate and doctor look at: the manifest, the
// server configuration the flags make of it, and what that server would
// advertise, hide and lack — found without serving or running anything.
type inspected struct {
	manifest *annotations.Manifest
	cfg      server.Config
	// warm: --warm (true unless turned off).
	warm bool
	// warmVerdict is what the last template of cli.warm's configuration
	// left on this machine (warm.go).
	warmVerdict func() (*warm.Verdict, bool)
	server.Inspection
}

// inspect loads the manifest and applies the flags; its errors carry the
// right exit code (a manifest that does not load: 2).
func (o *options) inspect() (*inspected, error) {
	if err := o.check(); err != nil {
		return nil, &exitError{exitUsage, err}
	}
	m, err := o.loadManifest(nil)
	if err != nil {
		return nil, err
	}
	cfg := o.serverConfig(m, nil, slog.New(slog.DiscardHandler))
	verdict := func() (*warm.Verdict, bool) { return warmVerdict(o, m, cfg.CLIPath) }
	return &inspected{manifest: m, cfg: cfg, warm: o.warm, warmVerdict: verdict, Inspection: server.Inspect(cfg)}, nil
}
