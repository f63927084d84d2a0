package server

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Ids inside messages (DESIGN.md §14). The transport hands the SDK ids of
// its own and gives the host's back on each answer (see [StdioTransport]).
// An id also travels inside messages: the SDK stamps a request's id into
// what it writes about that request, and the host names its requests in
// what it sends about them. At each such place the host must see its own
// id, byte for byte, and the SDK its own — or the host waits for a message
// that never names its request: Claude Code 2.1 waited ~28 s on every
// connect for the acknowledgement of its subscriptions/listen "listen:0",
// which said 2.
//
// idPlaces is every such place in go-sdk v1.8.0, read from its source (the
// writes of MetaKeySubscriptionID and of a cancel's requestId); the
// transport moves the id at each one, in both directions, and nowhere
// else. Not places, each for its reason:
//
//   - a notifications/cancelled the SDK writes names a request of the
//     SDK's own (a ping, roots, elicitation), whose id the transport passes
//     through untouched, as it does the host's answer to it;
//   - a progress token is the host's own value in the request's params,
//     which the SDK echoes without ever deriving one from an id (the
//     TypeScript client uses its request id as the token: that is the
//     host's id, which the SDK never saw renumbered);
//   - the tasks decorator ([tasks.Transport]) writes task ids of its own,
//     never a request id, and reads a cancel's requestId after this
//     transport moved it.
//
// A test holds the table to the SDK version it was read from
// (idPlacesSDK): a new SDK means reading its source again.
var idPlaces = []idPlace{
	// The host cancels a request of its own (mcp/transport.go: the SDK
	// reads params.requestId to find the handler to stop).
	{toSDK, "notifications/cancelled", false, []string{"requestId"}},
	// A 2026-07-28 subscriptions/listen: its acknowledgement and its final
	// result name the listen (mcp/server.go, subscriptionsListen).
	{toHost, "notifications/subscriptions/acknowledged", false, subscriptionID},
	{toHost, "subscriptions/listen", true, subscriptionID},
	// What a listen asked to hear, each stamped with the listen's id
	// (mcp/server.go, injectMetaSubscriptionID). A session of the
	// initialize handshake gets them without one: they pass as they are.
	{toHost, "notifications/tools/list_changed", false, subscriptionID},
	{toHost, "notifications/prompts/list_changed", false, subscriptionID},
	{toHost, "notifications/resources/list_changed", false, subscriptionID},
	{toHost, "notifications/resources/updated", false, subscriptionID},
}

// idPlacesSDK is the go-sdk release whose source idPlaces was read from.
const idPlacesSDK = "v1.8.0"

// subscriptionID is where 2026-07-28 names the listen a message belongs to.
var subscriptionID = []string{"_meta", mcp.MetaKeySubscriptionID}

// idDirection is who writes the id a place holds.
type idDirection bool

const (
	// toSDK: the host writes its own id; the SDK must get its own.
	toSDK idDirection = false
	// toHost: the SDK writes its own id; the host must get its own.
	toHost idDirection = true
)

// idPlace is a member of a message that holds a request id.
type idPlace struct {
	dir idDirection
	// method is the message's, or, for a result, its request's.
	method string
	// result: the member is in a response's result, not in params.
	result bool
	// path leads from the params (or result) object to the id.
	path []string
}

// placeKey finds a place: a message's method, and whether the body is a
// result.
type placeKey struct {
	method string
	result bool
}

// placeOf is idPlaces by method and side, built at the first message that
// is looked up, not in package init (every command pays that).
var placeOf = sync.OnceValue(func() map[placeKey]idPlace {
	m := make(map[placeKey]idPlace, len(idPlaces))
	for _, p := range idPlaces {
		m[placeKey{p.method, p.result}] = p
	}
	return m
})

// idPlaceOf is the place in a body (params, or a result when result) of a
// message with method that holds an id written by dir's other side.
func idPlaceOf(dir idDirection, method string, result bool) (idPlace, bool) {
	p, ok := placeOf()[placeKey{method, result}]
	return p, ok && p.dir == dir
}

// move replaces the id at p in body with swap's counterpart for it. A
// body that does not hold the member is returned as it is; ok is false when
// it does and swap has no counterpart (the message names a request the
// other side never made, or no longer has in flight: it must not be passed
// on).
func (p idPlace) move(body json.RawMessage, swap func(id json.RawMessage) (json.RawMessage, bool)) (out json.RawMessage, ok bool) {
	out, found, ok := moveAt(body, p.path, swap)
	if !found {
		return body, true
	}
	return out, ok
}

// moveAt is move along path from body; found says whether body held the
// member at all.
func moveAt(body json.RawMessage, path []string, swap func(json.RawMessage) (json.RawMessage, bool)) (out json.RawMessage, found, ok bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil || obj == nil {
		return nil, false, false
	}
	member, has := obj[path[0]]
	if !has {
		return nil, false, false
	}
	var moved json.RawMessage
	if len(path) == 1 {
		found = true
		moved, ok = swap(member)
	} else {
		moved, found, ok = moveAt(member, path[1:], swap)
	}
	if !ok {
		return nil, found, false
	}
	obj[path[0]] = moved
	out, err := encodeObject(obj)
	return out, found, err == nil
}

// encodeObject encodes an object of raw members, copying each as it is:
// json.Marshal would write a "&" inside an id as "\u0026", and the host's
// id is echoed byte for byte.
func encodeObject(obj map[string]json.RawMessage) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// sdkIDText is the SDK's id, as JSON, for the host's id raw inside a
// message: its request's own id while that request is in flight.
func (c *stdioConn) sdkIDText(raw json.RawMessage) (json.RawMessage, bool) {
	raw, valid := rawID(raw)
	if !valid || raw == nil {
		return nil, false
	}
	c.cmu.Lock()
	own, found := c.byRaw[string(raw)]
	c.cmu.Unlock()
	if !found {
		return nil, false
	}
	text, err := json.Marshal(own.Raw())
	return text, err == nil
}

// hostIDText is the host's id, exactly as it wrote it, for the SDK's id
// raw inside a message: a request in flight, or answering, the one being
// answered (no longer pending by then).
func (c *stdioConn) hostIDText(raw json.RawMessage, answering jsonrpc.ID, in *inbound) (json.RawMessage, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	own, err := jsonrpc.MakeID(v)
	if err != nil || !own.IsValid() {
		return nil, false
	}
	if in != nil && own == answering {
		return in.raw, true
	}
	c.cmu.Lock()
	defer c.cmu.Unlock()
	if p := c.pending[own]; p != nil {
		return p.raw, true
	}
	return nil, false
}
