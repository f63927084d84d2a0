package server

import (
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
)

// TestProperCode: an error's code is the one it carries; an error without
// one is internal (-32603) — never a code guessed from its words ("invalid
// …" is not invalid params, "missing …" not a missing method).
func TestProperCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int64
	}{
		{&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown tool"}, jsonrpc.CodeInvalidParams},
		{&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "x"}, jsonrpc.CodeMethodNotFound},
		{&jsonrpc.Error{Message: "invalid state of the store"}, jsonrpc.CodeInternalError},
		{&jsonrpc.Error{Message: "missing piece: method not found in the cache"}, jsonrpc.CodeInternalError},
		{errors.New("unsupported thing"), jsonrpc.CodeInternalError},
	} {
		got := properCode(tc.err)
		assert.Equal(t, tc.code, got.Code, tc.err.Error())
		assert.Contains(t, tc.err.Error(), got.Message, "the message is kept")
	}
}
