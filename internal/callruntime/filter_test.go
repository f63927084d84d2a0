package callruntime

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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
		// Issue 22 item 9.
		{"legacy pgp secret key block", "k:\n-----BEGIN PGP SECRET KEY BLOCK-----\nVersion: 2.6\n\nlQHPBF\n-----END PGP SECRET KEY BLOCK-----\nz", "k:\n[redacted private key]\nz"},
		{"json-escaped dashes", `{"key":"\u002d\u002d\u002d\u002d\u002dBEGIN RSA PRIVATE KEY\u002D\u002D\u002D\u002D\u002D\nMIIE\n\u002d\u002d\u002d\u002d\u002dEND RSA PRIVATE KEY\u002d\u002d\u002d\u002d\u002d\n"}`, `{"key":"[redacted private key]\n"}`},
		{"json-escaped letters", `"\u002d\u002d\u002d\u002d\u002d\u0042EGIN PRIVATE KEY-----\nAA\n-----END PRIVATE KEY-----"`, `"[redacted private key]"`},
		{"unicode hyphens", "a \u2010\u2010\u2010\u2010\u2010BEGIN RSA PRIVATE KEY\u2011\u2011\u2011\u2011\u2011\nMIIE\n\u2013\u2013\u2013\u2013\u2013END RSA PRIVATE KEY\u2014\u2014\u2014\u2014\u2014\nb", "a [redacted private key]\nb"},
		{"minus signs and no-break spaces", "\u2212\u2212\u2212\u2212\u2212BEGIN\u00a0EC\u00a0PRIVATE KEY\uff0d\uff0d\uff0d\uff0d\uff0d\nx\n-----END EC PRIVATE KEY-----", "[redacted private key]"},
		{"zero-width inside", "-----BEGIN RSA PRI\u200bVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----\n", "[redacted private key]\n"},
		{"en dashes that are not a marker", "2020\u20132025 \u2014 done\n", "2020\u20132025 \u2014 done\n"},
		{"ppk", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\nAAAAC3Nz\naC1lZDI1\nPrivate-Lines: 2\nAAAAIGh1\nbnRlcjI=\nPrivate-MAC: 5b1c\n",
			"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\nAAAAC3Nz\naC1lZDI1\n[redacted private key]\nPrivate-MAC: 5b1c\n"},
		{"ppk with crlf", "Private-Lines: 1\r\nAAAAIGh1\r\nPrivate-MAC: 5b\r\n", "[redacted private key]\nPrivate-MAC: 5b\r\n"},
		{"ppk in json", `{"ppk":"PuTTY-User-Key-File-2: ssh-rsa\nPrivate-Lines: 1\nAAAAIGh1\nPrivate-MAC: 5b"}`, `{"ppk":"PuTTY-User-Key-File-2: ssh-rsa\n[redacted private key]\nPrivate-MAC: 5b"}`},
		{"ppk at the end", "Private-Lines: 3\nAAAA\nBBBB", "[redacted private key]"},
		{"not a ppk count", "Private-Lines: many\nok\n", "Private-Lines: many\nok\n"},
		{"jwk d", `{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}`,
			`{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","d":"[redacted private key]"}`},
		{"jwk sorted keys, spaces, rsa members", `{"d": "X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoVH-HLLKD9M7dx5oo7GURknchnrRweUkC7hT5fJLM0WbFAKNLWY2vv7B6NqXSzUvxT0_YSfqijwp3RTzlBaCxWp4doFk5N2o8Gy_nHNKroADIkJ46pRUohsXywbReAdYaMwFs9tv8d_cPVY3i07a3t8MN6TNwm0dSawm9v47UiCl3Sk5ZiG7xojPLu4sbg1U2jx4IBTNBznbJSzFHK66jT8bgkuqsk0GjskDJk19Z4qwjwbsnn4j2WBii3RL-Us2lGVkY8fkFzme1z0HbIkfz0Y6mqnOYtqc0X4jfcKoAC8Q", "dp": "G4sPXkc6Ya9y8oJW9_ILj4xuppu0lzi_H7VTkS8xj5SdX3coE0oimYwxIi2emTAue0UOa5dpgFGyBJ4c8tQ2VF402XRugKDTP8akYhFo5tAA77Qe_NmtuYZc3C3m3I24G2GvR5sSDxUyAN2zq8Lfn9EUms6rY3Ob8YeiKkTiBj0", "e": "AQAB", "kty": "RSA"}`,
			`{"d": "[redacted private key]", "dp": "[redacted private key]", "e": "AQAB", "kty": "RSA"}`},
		{"jwk in json in json", `"{\"kty\":\"oct\",\"k\":\"GawgguFyGrWKav7AX4VKUg\"}"`, `"{\"kty\":\"oct\",\"k\":\"[redacted private key]\"}"`},
		{"jwk in python repr", `{'kty': 'OKP', 'd': 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A'}`, `{'kty': 'OKP', 'd': '[redacted private key]'}`},
		{"d that is not a key", `{"d":"2025-01-31","k":"app_ledger_list_entries","p":"1","q":"lowercaseonlyandlong"}`, `{"d":"2025-01-31","k":"app_ledger_list_entries","p":"1","q":"lowercaseonlyandlong"}`},
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
	// Issue 22 item 9's gaps.
	f.Add("-----BEGIN PGP SECRET KEY BLOCK-----\nlQHPBF\n-----END PGP SECRET KEY BLOCK-----\n", 9)
	f.Add(`"\u002d\u002d\u002d\u002d\u002dBEGIN RSA PRIVATE KEY\u002d\u002d\u002d\u002d\u002d\nMIIE"`, 14)
	f.Add("\u2010\u2010\u2010\u2010\u2010BEGIN RSA PRIVATE KEY\u2010\u2010\u2010\u2010\u2010\nx", 4)
	f.Add("Private-Lines: 2\nAAAA\nBBBB\nPrivate-MAC: 00\n", 15)
	f.Add(`{"kty":"EC","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}`, 20)
	f.Fuzz(func(t *testing.T, in string, cut int) {
		if cut < 0 || cut > len(in) {
			cut = len(in) / 2
		}
		whole := filterAll(RedactPrivateKeys(), in)
		assert.Equal(t, whole, filterAll(RedactPrivateKeys(), in, cut))
		// Without the letters of PRIVATEKEY or SECRETKEY in a row (blanks,
		// escapes and case aside), nothing can be a marker; without
		// "Private-Lines:" no PuTTY key; without a quote no JWK member:
		// nothing changes.
		letters := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return -1
		}, unescapeJSON(in))
		upper := strings.ToUpper(letters)
		if !strings.Contains(upper, "PRIVATEKEY") && !strings.Contains(upper, "SECRETKEY") &&
			!strings.Contains(in, "Private-Lines:") && !strings.ContainsAny(in, `"'`) {
			assert.Equal(t, in, whole)
		}
	})
}

// unescapeJSON resolves the \uXXXX escapes in s, as markers are read.
func unescapeJSON(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+6 <= len(s) && s[i+1] == 'u' {
			if v, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
				b.WriteRune(rune(v))
				i += 5
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
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

// BenchmarkFilters measures the output filters' throughput on a CLI's
// typical JSON output (quotes, dashes, accented letters, escaped
// newlines), 32 KiB per write as the pipe readers deliver it, against a
// floor measured in the same run: one search for the raw secret per write,
// the least a secret redactor does (BENCHMARKS.md reports the ratio).
func BenchmarkFilters(b *testing.B) {
	line := `{"fecha":"2025-01-31","concepto":"Cuota IVA — 1T","importe":-123.45,"nif":"B12345678","nota":"línea\nsegunda"}` + "\n"
	data := []byte(strings.Repeat(line, (4<<20)/len(line)))
	secret := []byte("hunter2-pässwörd")
	for _, tc := range []struct {
		name   string
		filter func() Filter
	}{
		{"floor", func() Filter { return indexFilter(secret) }},
		{"private-keys", RedactPrivateKeys},
		{"secrets", RedactSecrets([][]byte{[]byte(`{"secret":"hunter2-pässwörd"}`), secret}).Filter},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				f := tc.filter()
				for i := 0; i < len(data); i += 32 << 10 {
					f.Write(data[i:min(i+32<<10, len(data))])
				}
				f.Flush()
			}
		})
	}
}

// indexFilter looks for p in each write and passes it on: the floor of
// BenchmarkFilters.
type indexFilter []byte

func (f indexFilter) Write(p []byte) []byte {
	if bytes.Contains(p, f) {
		return nil
	}
	return p
}

func (f indexFilter) Flush() []byte { return nil }

// BenchmarkSecretsVsFloor times, in each iteration and back to back, the
// floor of BenchmarkFilters (one search for the raw secret per write) and
// the secret redactor over the same 4 MiB of JSON lines, and reports the
// ratio of their medians: on a shared machine only a ratio measured in the
// same moments means anything.
func BenchmarkSecretsVsFloor(b *testing.B) {
	line := `{"fecha":"2025-01-31","concepto":"Cuota IVA — 1T","importe":-123.45,"nif":"B12345678","nota":"línea\nsegunda"}` + "\n"
	data := []byte(strings.Repeat(line, (4<<20)/len(line)))
	secret := []byte("hunter2-pässwörd")
	redactor := RedactSecrets([][]byte{[]byte(`{"secret":"hunter2-pässwörd"}`), secret})
	pass := func(f Filter) time.Duration {
		start := time.Now()
		for i := 0; i < len(data); i += 32 << 10 {
			f.Write(data[i:min(i+32<<10, len(data))])
		}
		f.Flush()
		return time.Since(start)
	}
	var floor, secrets []time.Duration
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		floor = append(floor, pass(indexFilter(secret)))
		secrets = append(secrets, pass(redactor.Filter()))
	}
	b.ReportMetric(float64(median(secrets))/float64(median(floor)), "x-floor")
	b.ReportMetric(float64(len(data))/median(secrets).Seconds()/1e6, "MB/s-redactor")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
