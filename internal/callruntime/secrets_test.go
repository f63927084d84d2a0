package callruntime

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertEveryCut checks that in filtered through f's kind gives want
// however the stream is cut, once or twice.
func assertEveryCut(t *testing.T, newFilter func() Filter, in, want string) {
	t.Helper()
	assert.Equal(t, want, filterAll(newFilter(), in))
	for i := 0; i <= len(in); i++ {
		if !assert.Equal(t, want, filterAll(newFilter(), in, i), "cut at %d", i) {
			return
		}
		for j := i; j <= len(in); j += 5 {
			if !assert.Equal(t, want, filterAll(newFilter(), in, i, j), "cut at %d and %d", i, j) {
				return
			}
		}
	}
}

func TestRedactSecrets_Forms(t *testing.T) {
	secret := `pa"ss/wörd<&>` + "\n1"
	goJSON, _ := json.Marshal(secret)
	ascii := `pa\"ss/w\u00f6rd<&>\n1`
	b64 := base64.StdEncoding.EncodeToString([]byte(secret))
	inUserPass := base64.StdEncoding.EncodeToString([]byte("user:" + secret)) // the secret at offset 5
	R := RedactedSecret
	tests := []struct{ name, in, want string }{
		{"raw", "got " + secret + " here", "got " + R + " here"},
		{"JSON, minimal", `{"v":"pa\"ss/wörd<&>\n1"}`, `{"v":"` + R + `"}`},
		{"JSON, Go's", `{"v":` + string(goJSON) + `}`, `{"v":"` + R + `"}`},
		{"JSON, ASCII only (Python's default)", `{"v":"` + ascii + `"}`, `{"v":"` + R + `"}`},
		{"JSON, slash escaped (PHP)", `"pa\"ss\/wörd<&>\n1"`, `"` + R + `"`},
		{"JSON in a JSON string", `"could not parse {\"v\":\"pa\\\"ss/wörd<&>\\n1\"}"`, `"could not parse {\"v\":\"` + R + `\"}"`},
		{"base64", "b64=" + b64, "b64=" + R},
		{"hex", "x " + hex.EncodeToString([]byte(secret)), "x " + R},
		{"URL query", "?p=" + url.QueryEscape(secret) + "&q=1", "?p=" + R + "&q=1"},
		{"twice", secret + secret, R + R},
		{"nothing", "plain output\n", "plain output\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertEveryCut(t, RedactSecrets([][]byte{[]byte(secret)}).Filter, tc.in, tc.want)
		})
	}
	t.Run("base64 inside longer data", func(t *testing.T) {
		out := RedactSecrets([][]byte{[]byte(secret)}).RedactString("Authorization: Basic " + inUserPass)
		assert.Contains(t, out, R)
		dec, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(out, "Authorization: Basic "))
		assert.NotContains(t, string(dec), "wörd", "what is left decodes to no part of the secret's middle")
	})
}

// TestRedactSecrets_Short: a short secret is replaced as a whole token only,
// so that ordinary words containing its letters survive.
func TestRedactSecrets_Short(t *testing.T) {
	R := RedactedSecret
	tests := []struct{ secret, in, want string }{
		{"1234", `{"pin":"1234"} 12345 a1234 1234`, `{"pin":"` + R + `"} 12345 a1234 ` + R},
		{"ab", "about ab, tab ab", "about " + R + ", tab " + R},
		{"ab", "ab", R},
		{"x-y", "x-y x-yz", R + " x-yz"},
		{"-!", "a-!b", "a" + R + "b"}, // no word bytes at its ends: anywhere
	}
	for _, tc := range tests {
		t.Run(tc.secret, func(t *testing.T) {
			assertEveryCut(t, RedactSecrets([][]byte{[]byte(tc.secret)}).Filter, tc.in, tc.want)
		})
	}
}

func TestRedactSecrets_HoldsBackOnlyPossibleSecrets(t *testing.T) {
	f := RedactSecrets([][]byte{[]byte("hunter2-secret")}).Filter()
	assert.Equal(t, "plain line\n", string(f.Write([]byte("plain line\n"))), "ordinary text passes at once")
	assert.Equal(t, "log: ", string(f.Write([]byte("log: hunter2-se"))))
	assert.Equal(t, "hunter2-sea\n", string(f.Write([]byte("a\n"))))
	assert.Equal(t, "x "+RedactedSecret, string(f.Write([]byte("x hunter2-secret"))))
	assert.Equal(t, "", string(f.Flush()))
}

func TestRedactSecrets_NoneIsNil(t *testing.T) {
	assert.Nil(t, RedactSecrets(nil))
	assert.Nil(t, RedactSecrets([][]byte{{}}))
	var r *SecretRedactor
	assert.Equal(t, "as is", r.RedactString("as is"))
}

// TestRedactSecrets_Chain: secrets and private keys together, through the
// chain Run builds.
func TestRedactSecrets_Chain(t *testing.T) {
	newFilter := func() Filter {
		return chainFilters([]Filter{RedactSecrets([][]byte{[]byte("s3cr3t-value")}).Filter(), RedactPrivateKeys()})
	}
	in := "a s3cr3t-value b\n-----BEGIN RSA PRIVATE KEY-----\ns3cr3t-value\n-----END RSA PRIVATE KEY-----\nc"
	assertEveryCut(t, newFilter, in, "a "+RedactedSecret+" b\n"+RedactedPrivateKey+"\nc")
}

func FuzzRedactSecrets(f *testing.F) {
	f.Add("hunter2-secret", "say hunter2-secret and aHVudGVyMi1zZWNyZXQ= twice hunter2-secret", 7)
	f.Add("ab", "about ab", 3)
	f.Add(`p"w`, `{"p":"p\"w"}`, 5)
	f.Fuzz(func(t *testing.T, secret, in string, cut int) {
		r := RedactSecrets([][]byte{[]byte(secret)})
		if r == nil {
			return
		}
		if cut < 0 || cut > len(in) {
			cut = len(in) / 2
		}
		whole := filterAll(r.Filter(), in)
		require.Equal(t, whole, filterAll(r.Filter(), in, cut), "the same wherever the stream is cut")
		require.Equal(t, whole, r.RedactString(in), "a stream and a whole text alike")
		if len(secret) >= minAnywhere && !strings.Contains(RedactedSecret, secret) {
			for _, piece := range strings.Split(whole, RedactedSecret) {
				require.NotContains(t, piece, secret)
			}
		}
	})
}
