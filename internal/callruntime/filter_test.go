package callruntime

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// filterAll runs in through a filter in chunks cut at the given points.
func filterAll(f Filter, in string, cuts ...int) string {
	var out []byte
	prev := 0
	for _, c := range append(cuts, len(in)) {
		out = append(out, f.Write([]byte(in[prev:c]))...)
		prev = c
	}
	return string(append(out, f.Flush()...))
}

func TestRedactPrivateKeys(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no key", "hello\nworld\n", "hello\nworld\n"},
		{"rsa key", "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\nxyz\n-----END RSA PRIVATE KEY-----\nb\n", "a\n[redacted private key]\nb\n"},
		{"pkcs8 key", "-----BEGIN PRIVATE KEY-----\nAAA\n-----END PRIVATE KEY-----", "[redacted private key]"},
		{"encrypted key", "x -----BEGIN ENCRYPTED PRIVATE KEY-----\nAAA\n-----END ENCRYPTED PRIVATE KEY----- y", "x [redacted private key] y"},
		{"two keys", "-----BEGIN EC PRIVATE KEY-----\n1\n-----END EC PRIVATE KEY-----\nmid\n-----BEGIN OPENSSH PRIVATE KEY-----\n2\n-----END OPENSSH PRIVATE KEY-----\n", "[redacted private key]\nmid\n[redacted private key]\n"},
		{"certificate is not a key", "-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----\n", "-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----\n"},
		{"public key is not a key", "-----BEGIN PUBLIC KEY-----\nMII\n-----END PUBLIC KEY-----\n", "-----BEGIN PUBLIC KEY-----\nMII\n-----END PUBLIC KEY-----\n"},
		{"unterminated key", "ok\n-----BEGIN RSA PRIVATE KEY-----\nsecret\nmore secret", "ok\n[redacted private key]"},
		{"dashes that are not a marker", "--- a/x\n+++ b/x\n-----\n", "--- a/x\n+++ b/x\n-----\n"},
		{"lower case", "a\n-----begin rsa private key-----\nMIIE\n-----end rsa private key-----\nb\n", "a\n[redacted private key]\nb\n"},
		{"pgp block", "k:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF\n=Ab12\n-----END PGP PRIVATE KEY BLOCK-----\nz", "k:\n[redacted private key]\nz"},
		{"tab and runs of spaces", "-----BEGIN\tRSA  PRIVATE\tKEY-----\nx\n-----END  RSA PRIVATE KEY-----\n", "[redacted private key]\n"},
		{"escape inside", "-----BEGIN \x1b[1mRSA\x1b[0m PRIVATE KEY-----\nx\n-----END RSA PRIVATE\x1b[0m KEY-----\n", "[redacted private key]\n"},
		{"osc and control bytes inside", "-----BEGIN \x1b]0;t\x07OPENSSH\x00 PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n", "[redacted private key]\n"},
		{"carriage returns", "-----BEGIN EC PRIVATE KEY-----\r\nx\r\n-----END EC PRIVATE KEY-----\r\nok\r\n", "[redacted private key]\r\nok\r\n"},
		{"pgp public block is not a key", "-----BEGIN PGP PUBLIC KEY BLOCK-----\nx\n", "-----BEGIN PGP PUBLIC KEY BLOCK-----\nx\n"},
		{"marker at the very end", "x -----BEGIN RSA PRIVATE KEY-----", "x [redacted private key]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, filterAll(RedactPrivateKeys(), tc.in))
			// The same answer wherever the stream is cut, once or twice.
			for i := 0; i <= len(tc.in); i++ {
				assert.Equal(t, tc.want, filterAll(RedactPrivateKeys(), tc.in, i), "cut at %d", i)
				for j := i; j <= len(tc.in); j += 7 {
					assert.Equal(t, tc.want, filterAll(RedactPrivateKeys(), tc.in, i, j), "cut at %d and %d", i, j)
				}
			}
		})
	}
}

func TestRedactPrivateKeys_HoldsBackOnlyPossibleMarkers(t *testing.T) {
	f := RedactPrivateKeys()
	assert.Equal(t, "plain line\n", string(f.Write([]byte("plain line\n"))), "ordinary text must pass at once")
	assert.Equal(t, "log: ", string(f.Write([]byte("log: -----BEG"))))
	assert.Equal(t, "-----BEGIN CERT\n", string(f.Write([]byte("IN CERT\n"))))
}

func FuzzRedactPrivateKeys(f *testing.F) {
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nsecret\n-----END RSA PRIVATE KEY-----\n", 5)
	f.Add("plain", 2)
	f.Fuzz(func(t *testing.T, in string, cut int) {
		if cut < 0 || cut > len(in) {
			cut = len(in) / 2
		}
		whole := filterAll(RedactPrivateKeys(), in)
		assert.Equal(t, whole, filterAll(RedactPrivateKeys(), in, cut))
		// Without the letters of PRIVATEKEY in a row (blanks, escapes
		// and case aside), nothing can be a marker: nothing changes.
		letters := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return -1
		}, in)
		if !strings.Contains(strings.ToUpper(letters), "PRIVATEKEY") {
			assert.Equal(t, in, whole)
		}
	})
}

func TestHeadTail(t *testing.T) {
	tests := []struct {
		name       string
		max        int
		writes     []string
		head, tail string
		total      int64
	}{
		{"fits", 10, []string{"abc", "de"}, "abcde", "", 5},
		{"exactly full", 4, []string{"abcd"}, "ab", "cd", 4},
		{"ring wraps", 6, []string{"abc", "def", "gh", "ij"}, "abc", "hij", 10},
		{"one big write", 6, []string{"0123456789"}, "012", "789", 10},
		{"many small writes", 4, strings.Split("abcdefghij", ""), "ab", "ij", 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHeadTail(tc.max)
			for _, w := range tc.writes {
				h.Write([]byte(w))
			}
			o := h.output()
			assert.Equal(t, tc.head, string(o.Head))
			assert.Equal(t, tc.tail, string(o.Tail))
			assert.Equal(t, tc.total, o.Total)
		})
	}
}

func TestLineSplitter(t *testing.T) {
	var got []Line
	d := &dispatcher{queue: make(chan Line, 100)}
	s := &lineSplitter{stream: Stderr, d: d}
	s.Write([]byte("one\r\ntw"))
	s.Write([]byte("o\n" + strings.Repeat("z", MaxLineBytes+10) + "\nthree"))
	s.Flush()
	close(d.queue)
	for l := range d.queue {
		got = append(got, l)
	}
	if assert.Len(t, got, 4) {
		assert.Equal(t, "one", got[0].Text)
		assert.Equal(t, "two", got[1].Text)
		assert.True(t, got[2].Cut)
		assert.Len(t, got[2].Text, MaxLineBytes)
		assert.Equal(t, "three", got[3].Text)
		assert.Equal(t, Stderr, got[3].Stream)
	}
}
