package server

import (
	"bytes"
	"encoding/json"
	"io"
)

// maxNesting is how deep encoding/json (and so the SDK) decodes: a message
// nested deeper is refused whole, though it may be valid JSON.
const maxNesting = 10000

// maxIDText bounds the id text a memberScan keeps: an id is a string or a
// number, and no host writes one this long.
const maxIDText = 4 << 10

// memberScan follows a JSON line fed in pieces, keeping none of it but its
// top-level "id" (when short): enough to answer a line the transport does
// not decode whole — one longer than it reads, or nested deeper than
// maxNesting — with its own id, as the transport answers any other line
// it refuses. It checks only what it follows (strings, nesting, the
// top-level members), not that the line is valid JSON.
type memberScan struct {
	depth    int
	inString bool
	escaped  bool
	state    scanState
	bad      bool // not one object, or broken where the scan could tell

	key     []byte // the top-level key being read, as written (bounded)
	keyLong bool
	member  string // the decoded key whose value is being read
	value   []byte // the value of an "id" member, as written (bounded)
	valLong bool
	id      json.RawMessage // the last "id" member's value, if short
	idSeen  bool
	idLong  bool
	// valueAny: the value being read has begun; valueEnded: a space
	// followed it at the top level.
	valueAny, valueEnded bool
}

type scanState int

const (
	scanStart    scanState = iota // before the object
	scanFirstKey                  // after "{": a key or "}"
	scanKey                       // after ",": a key
	scanInKey                     // in a key
	scanColon                     // after a key
	scanValue                     // in a member's value
	scanDone                      // after the object
	maxMemberKey = 64             // bytes of a key worth decoding (an "id" written with escapes)
)

// Write feeds the next piece of the line.
func (s *memberScan) Write(p []byte) (int, error) {
	for _, b := range p {
		s.step(b)
	}
	return len(p), nil
}

// step advances the scan by one byte.
func (s *memberScan) step(b byte) {
	if s.bad {
		return
	}
	if s.inString {
		s.keep(b)
		switch {
		case s.escaped:
			s.escaped = false
		case b == '\\':
			s.escaped = true
		case b == '"':
			s.inString = false
			if s.state == scanInKey && s.depth == 1 {
				s.endKey()
			}
		}
		return
	}
	if b == ' ' || b == '\t' || b == '\r' || b == '\n' {
		// A top-level value ends at its first space: "1 2" is no id.
		s.valueEnded = s.state == scanValue && s.depth == 1 && s.valueAny
		return
	}
	switch s.state {
	case scanStart:
		if b != '{' {
			s.bad = true
			return
		}
		s.depth, s.state = 1, scanFirstKey
		return
	case scanDone:
		s.bad = true // something after the object
		return
	case scanFirstKey, scanKey:
		switch {
		case b == '"':
			s.inString, s.state = true, scanInKey
			s.key, s.keyLong = append(s.key[:0], b), false
		case b == '}' && s.state == scanFirstKey:
			s.close()
		default:
			s.bad = true
		}
		return
	case scanColon:
		if b != ':' {
			s.bad = true
			return
		}
		s.state, s.valueAny, s.valueEnded = scanValue, false, false
		s.value, s.valLong = s.value[:0], false
		return
	}
	// scanValue: a member's value, at the top level or nested in it.
	if s.depth == 1 && (b == ',' || b == '}') {
		s.endValue()
		if b == '}' {
			s.close()
		} else {
			s.state = scanKey
		}
		return
	}
	if s.depth == 1 && s.valueEnded {
		s.bad = true
		return
	}
	s.valueAny = true
	s.keep(b)
	switch b {
	case '"':
		s.inString = true
	case '{', '[':
		s.depth++
	case '}', ']':
		s.depth--
		s.bad = s.depth < 1 // a "]" closing the object
	}
}

// keep notes b as part of the key or of an "id" value being read.
func (s *memberScan) keep(b byte) {
	switch {
	case s.state == scanInKey && s.depth == 1:
		if len(s.key) < maxMemberKey {
			s.key = append(s.key, b)
		} else {
			s.keyLong = true
		}
	case s.state == scanValue && s.member == "id":
		if len(s.value) < maxIDText {
			s.value = append(s.value, b)
		} else {
			s.valLong = true
		}
	}
}

// endKey decodes the key just read: JSON-RPC's member names match once
// decoded ("i\u0064" is "id"), as the transport's own decoding does.
func (s *memberScan) endKey() {
	s.state, s.member = scanColon, ""
	if !s.keyLong {
		_ = json.Unmarshal(s.key, &s.member)
	}
}

// endValue records the member whose value just ended; as in the
// transport's decoding, a member written twice counts as its last.
func (s *memberScan) endValue() {
	if !s.valueAny {
		s.bad = true
		return
	}
	if s.member == "id" {
		s.idSeen, s.idLong = true, s.valLong
		s.id = append(s.id[:0], bytes.TrimRight(s.value, jsonSpace)...)
	}
}

// close ends the top-level object.
func (s *memberScan) close() {
	s.depth, s.state = 0, scanDone
}

// lineID is the id to answer the line with: its top-level id, when the
// line is one object and the id a string or a number of readable length;
// nil (answered as null) otherwise.
func (s *memberScan) lineID() json.RawMessage {
	if s.bad || s.inString || s.state != scanDone || !s.idSeen || s.idLong {
		return nil
	}
	id, ok := rawID(s.id)
	if !ok || id == nil || !json.Valid(id) {
		return nil
	}
	return id
}

// nestedTooDeep reports whether data, a line encoding/json refused, nests
// arrays and objects deeper than maxNesting: JSON that may well be valid,
// refused for its depth alone.
func nestedTooDeep(data []byte) bool {
	depth := 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString:
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > maxNesting {
				return true
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return false
}

// validByTokens reports whether data is one JSON value, read token by
// token: json.Valid refuses any value nested deeper than maxNesting, valid
// or not, while a Decoder's tokens have no depth limit. A line too deep to
// decode is answered with its own id only when it is valid JSON; broken,
// it is a parse error, answered with id null as any other.
func validByTokens(data []byte) bool {
	d := json.NewDecoder(bytes.NewReader(data))
	for depth := 0; ; {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			break
		}
	}
	_, err := d.Token()
	return err == io.EOF
}
