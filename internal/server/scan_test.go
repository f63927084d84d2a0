package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzMemberScan holds memberScan, which follows a line it does not keep,
// to a decoding of the whole line: for a line that is one JSON object
// (decoded by encoding/json, or token by token when too deep for it), the
// id it reads is the object's "id" member exactly as written, when that is
// a string or a number; for any other line, whatever it reads is a string
// or a number that is valid JSON — never bytes that would break an answer.
// Fed in two pieces, split anywhere, it reads what it reads whole.
//
//	go test -run '^$' -fuzz FuzzMemberScan -fuzztime 2m ./internal/server
func FuzzMemberScan(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"method":"tools/list","params":{"_meta":{"a":[1,{"id":2}]}},"jsonrpc":"2.0","id":0}`,
		`{"id":"a\"b\\","id":7.5}`,
		`{"i\u0064":"x"}`,
		`{"id":1 2}`,
		`{"id":1x}`,
		`{"id":[1]}`,
		`{"id":"` + strings.Repeat("x", maxIDText) + `"}`,
		`{,"id":1}`,
		`{"id":1,}`,
		`{"id":1}]`,
		`{"id":1} {}`,
		`[{"id":1}]`,
		`{"id":-0.5e3 , "params": {"x":"}"}}`,
		`{"params":` + strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1) + `,"id":"deep"}`,
	} {
		f.Add([]byte(seed), uint16(len(seed)/2))
	}
	f.Fuzz(func(t *testing.T, line []byte, cut uint16) {
		var whole memberScan
		_, _ = whole.Write(line)
		got := whole.lineID()

		var pieces memberScan
		at := int(cut) % (len(line) + 1)
		_, _ = pieces.Write(line[:at])
		_, _ = pieces.Write(line[at:])
		if !bytes.Equal(pieces.lineID(), got) {
			t.Fatalf("%q: whole %s, in two pieces at %d %s", line, got, at, pieces.lineID())
		}

		members := map[string]json.RawMessage{}
		if json.Unmarshal(line, &members) != nil || members == nil {
			members = topMembers(line)
		}
		if members == nil {
			if got != nil && (!json.Valid(got) || got[0] == '{' || got[0] == '[') {
				t.Fatalf("%q is no object, and its id was read as %s", line, got)
			}
			return
		}
		want, ok := rawID(members["id"])
		if !ok || len(want) > maxIDText {
			want = nil
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%q: id %s, want %s", line, got, want)
		}
	})
}
