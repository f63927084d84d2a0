package server

import (
	"context"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// confirmID is the id of the confirmation input request.
const confirmID = "confirm"

// ConfirmWait bounds how long a destructive call waits for the user's
// answer on hosts that are asked directly; no answer is a "no".
var ConfirmWait = 5 * time.Minute

// multiRoundTripVersion is the first protocol version whose clients answer
// input requests themselves (CallToolResult.InputRequests).
const multiRoundTripVersion = "2026-07-28"

// gate decides whether a destructive tool may run. It returns a result that
// asks the host for input (ask), a refusal, or neither (go ahead). It fails
// closed: a host that cannot ask, a decline, a cancel, an error or no
// answer are all a refusal. Nothing before it has side effects, because on
// the newest protocol the SDK re-invokes the handler with the answer.
func (c *call) gate(ctx context.Context) (ask, refusal *mcp.CallToolResult) {
	if !c.t.Hints.Destructive || c.s.cfg.Confirm == ConfirmNever {
		return nil, nil
	}
	refuse := func(reason string, key i18n.Key) *mcp.CallToolResult {
		c.o.Code = CodeRefused
		c.o.Reason = reason
		c.o.TreeDead = true
		return c.finish(c.p.Sprintf(key, c.t.Name), nil)
	}
	caps := c.req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return nil, refuse("cannot_confirm", i18n.RefusedCannotConfirm)
	}
	params := &mcp.ElicitParams{
		Mode:    "form",
		Message: c.p.Sprintf(i18n.ConfirmPrompt, c.t.Title, c.t.Name),
		RequestedSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				confirmID: {Type: "boolean", Title: c.p.Sprintf(i18n.ConfirmField)},
			},
			Required: []string{confirmID},
		},
	}
	var answer *mcp.ElicitResult
	if c.req.ProtocolVersion() >= multiRoundTripVersion {
		resp, answered := c.req.Params.InputResponses[confirmID]
		if !answered {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{confirmID: params}}, nil
		}
		answer, _ = resp.(*mcp.ElicitResult)
	} else {
		ectx, cancel := context.WithTimeout(ctx, ConfirmWait)
		defer cancel()
		res, err := c.req.Session.Elicit(ectx, params)
		if err != nil {
			c.s.cfg.Logger.Warn("confirmation failed", "tool", c.t.Name, "error", err)
			return nil, refuse("declined", i18n.RefusedDeclined)
		}
		answer = res
	}
	if answer == nil || answer.Action != "accept" || answer.Content[confirmID] != true {
		return nil, refuse("declined", i18n.RefusedDeclined)
	}
	return nil, nil
}
