package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestEncodeResponse_ResultCopiedOnce: a response line is built in one
// array with room for its newline, so the result — 575 KB for the whole
// aeat's tools/list — is copied into it once and written as it is, never
// copied again into a grown array.
func TestEncodeResponse_ResultCopiedOnce(t *testing.T) {
	result := json.RawMessage(`{"tools":[` + strings.Repeat(`{"name":"x"},`, 10_000) + `{}]}`)
	id := json.RawMessage(`"a&b"`)
	want := `{"jsonrpc":"2.0","id":"a&b","result":` + string(result) + `}`
	require.Equal(t, want, string(encodeResponse(id, result, nil)))
	var out bytes.Buffer
	out.Grow(2 * len(want))
	c := &stdioConn{out: &out}
	allocs := testing.AllocsPerRun(20, func() {
		out.Reset()
		_ = c.writeLine(encodeResponse(id, result, nil))
	})
	assert.Equal(t, want+"\n", out.String())
	assert.Equal(t, 1.0, allocs, "allocations for a line: the line's own array alone")
}

// TestWrite_BigInitializeAnswered: an initialize answer past bigResult,
// written in pieces, still starts the work after initialize
// (StdioTransport.OnAnswered) — the pieces path returned before it when
// only a call's tens of megabytes took it — and either path writes the
// same line.
func TestWrite_BigInitializeAnswered(t *testing.T) {
	for _, size := range []int{100, bigResult + 1} {
		var out bytes.Buffer
		answered := 0
		c := (&StdioTransport{Out: &out, OnAnswered: func() { answered++ }}).newConn()
		req, ok := c.parse([]byte(initLine)).(*jsonrpc.Request)
		require.True(t, ok)
		result := json.RawMessage(`{"instructions":"` + strings.Repeat("x", size) + `"}`)
		require.NoError(t, c.Write(t.Context(), &jsonrpc.Response{ID: req.ID, Result: result}))
		assert.Equal(t, 1, answered, "OnAnswered after an answer of %d bytes", len(result))
		assert.Equal(t, `{"jsonrpc":"2.0","id":0,"result":`+string(result)+"}\n", out.String())
	}
}
