package server

import (
	"context"
	"encoding/json"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Probe is what the CLI said about itself when doctor asked (cli.health).
type Probe struct {
	// Version is the CLI's version output, trimmed; "" when the manifest
	// gives no version arguments or the CLI could not say.
	Version string
	// VersionResult is the version call's whole result, nil without one.
	VersionResult *mcp.CallToolResult
	// Health is the health command's result, exactly as a tool call's:
	// the outcome in _meta (ok, or exit with the meaning the manifest's
	// error_codes give, e.g. login_required), the text the model would
	// read, the CLI's result structured.
	Health *mcp.CallToolResult
	// Ready is the health answer judged by cli.health.ready (DESIGN.md
	// §14, "Health that means ready"): nil when the manifest declares no
	// ready condition, or when the health command failed (Health says
	// how). An answer that is not JSON holds no verdict: not ready.
	Ready *annotations.Readiness
}

// Probe runs cli.health — the version arguments, then the health command
// — through the same path as a tool call: environment, keychain secrets,
// working directory, runner, tier ceiling, error reading. Nil when the
// manifest has no cli.health.
func (s *Server) Probe(ctx context.Context) *Probe {
	tools := s.cfg.Manifest.HealthTools()
	if tools == nil {
		return nil
	}
	p := &Probe{}
	for _, t := range tools {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: t.Name, Arguments: json.RawMessage(`{}`)}}
		res, _ := s.handler(s.verb(t))(ctx, req) // the handler never returns an error
		switch t.Name {
		case annotations.HealthToolName:
			p.Health = res
			if r := s.cfg.Manifest.CLI.Health.Ready; r != nil && !res.IsError {
				judged := r.Judge(jsonValue(res.StructuredContent))
				p.Ready = &judged
			}
		case annotations.VersionToolName:
			p.VersionResult = res
			if !res.IsError && len(res.Content) > 0 {
				if tc, ok := res.Content[0].(*mcp.TextContent); ok {
					p.Version = firstLine(tc.Text)
				}
			}
		}
	}
	return p
}

// jsonValue is v as encoding/json decodes a document into any (maps,
// slices, float64): what a pointer walks.
func jsonValue(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
