package callruntime

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// A secretSpelling is one way a program prints a value it was given: the
// exact text a library makes of it — the inside of the quoted string, where
// the library adds quotes, since the quotes are not part of the secret.
// [RedactSecrets] replaces every spelling of the table, of the value as it
// is and of its NFC and NFD normal forms; the tests encode random values
// with the same table (and hold each entry to the library it names by
// running that library). One table: a new spelling is one entry.
//
// Line wrapping is not a spelling: a value split across lines by a wrapper
// (textwrap, Rich, MIME base64's 76 columns) is found by the matcher in
// every spelling (see wrapWidth).
type secretSpelling struct {
	// name says which library call prints it so.
	name  string
	spell func(v string) []string
	// encoded: an alphabet of its own (base64, hex, decimal bytes), whose
	// forms shorter than minEncoded are left out.
	encoded bool
}

var secretSpellings = []secretSpelling{
	{name: "as given", spell: func(v string) []string { return []string{v} }},

	// JSON strings.
	{name: "JSON: JSON.stringify, Python json.dumps(ensure_ascii=False)", spell: one(jsonMinimal)},
	{name: "JSON: Go encoding/json", spell: one(jsonGo)},
	{name: "JSON: Python json.dumps (ASCII only)", spell: one(jsonASCII)},
	{name: `JSON: "/" escaped (PHP)`, spell: one(func(v string) string { return jsonEscape(v, false, true) })},
	{name: "JSON inside a JSON string", spell: func(v string) []string {
		return []string{jsonMinimal(jsonMinimal(v)), jsonMinimal(jsonASCII(v)), jsonASCII(jsonMinimal(v)), jsonMinimal(jsonGo(v))}
	}},

	// Quoted strings of programming languages.
	{name: "Python repr()", spell: one(func(v string) string { return pythonRepr(v, false) })},
	{name: "Python ascii()", spell: one(func(v string) string { return pythonRepr(v, true) })},
	{name: "Python repr() of bytes", spell: one(pythonBytesRepr)},
	{name: "Go strconv.Quote, %q", spell: one(func(v string) string { return unquoted(strconv.Quote(v)) })},
	{name: "Go strconv.QuoteToASCII, %+q", spell: one(func(v string) string { return unquoted(strconv.QuoteToASCII(v)) })},
	{name: "Node util.inspect, console.log of an object", spell: one(nodeInspect)},

	// Shells and tables.
	{name: "Python shlex.quote", spell: one(func(v string) string { return strings.ReplaceAll(v, "'", `'"'"'`) })},
	{name: `POSIX sh single quotes, bash ${v@Q}`, spell: func(v string) []string {
		out := []string{strings.ReplaceAll(v, "'", `'\''`)}
		if v == "'" {
			out = append(out, `\'`) // bash's own, without quotes
		}
		for _, utf8Locale := range []bool{true, false} {
			if needsANSIC(v, utf8Locale) {
				out = append(out, bashANSIC(v, utf8Locale))
			}
		}
		return out
	}},
	{name: "bash printf %q", spell: func(v string) []string { return []string{bashPrintfQ(v, true), bashPrintfQ(v, false)} }},
	{name: "CSV: Python csv, Go encoding/csv", spell: one(func(v string) string { return strings.ReplaceAll(v, `"`, `""`) })},

	// Markup.
	{name: "HTML: Go html.EscapeString", spell: one(html.EscapeString)},
	{name: "HTML: Python html.escape", spell: one(pythonHTMLEscape)},
	{name: "HTML: Go html/template", spell: one(goTemplateHTML)},
	{name: "XML: Go xml.EscapeText", spell: one(goXMLEscape)},
	{name: "XML: Python xml.sax.saxutils.escape (& < > only)", spell: one(markupMinimal)},

	// URLs: each in upper- and lower-case hex.
	{name: "URL: Python urllib.parse.quote (safe='/')", spell: percent(func(c byte) bool { return unreserved(c) || c == '/' }, false)},
	{name: "URL: Python quote(safe='')", spell: percent(unreserved, false)},
	{name: "URL: Python quote_plus, Go url.QueryEscape", spell: percent(unreserved, true)},
	{name: "URL: Go url.PathEscape", spell: cases(url.PathEscape)},
	{name: "URL: Go url.URL path", spell: cases(func(v string) string { return (&url.URL{Path: v}).EscapedPath() })},
	{name: "URL: JS encodeURIComponent", spell: percent(func(c byte) bool { return unreserved(c) || strings.IndexByte("!*'()", c) >= 0 }, false)},
	{name: "URL: JS encodeURI", spell: percent(func(c byte) bool { return unreserved(c) || strings.IndexByte("!*'();,/?:@&=+$#", c) >= 0 }, false)},
	{name: "URL: JS URLSearchParams", spell: percent(func(c byte) bool { return isAlnum(c) || strings.IndexByte("*-._", c) >= 0 }, true)},

	// Encodings of the bytes.
	{name: "base64 (standard, URL; padded or not; inside longer data; MIME's 76 columns)", spell: base64Forms, encoded: true},
	{name: "hex: Go hex.EncodeToString, %x, %X, Python bytes.hex()", spell: func(v string) []string {
		h := hex.EncodeToString([]byte(v))
		return []string{h, strings.ToUpper(h)}
	}, encoded: true},
	{name: "Node Buffer inspect (<Buffer 68 75 …>)", spell: func(v string) []string {
		return []string{byteList(v, func(c byte) string { return fmt.Sprintf("%02x", c) }, " ")}
	}, encoded: true},
	{name: "Go %v of []byte ([104 117 …])", spell: func(v string) []string {
		return []string{byteList(v, func(c byte) string { return strconv.Itoa(int(c)) }, " ")}
	}, encoded: true},
}

// printed calls f with every text a program prints of v, by the table:
// each spelling of v and of its normal forms, and, for a spelling that is
// not an encoding, that text inside a JSON string too (a JSON log line or
// error document that quotes what the library printed). encoded marks an
// encoding's.
func printed(v string, f func(p string, encoded bool)) {
	layered := map[string]bool{}
	for _, n := range normalForms(v) {
		for _, sp := range secretSpellings {
			for _, p := range sp.spell(n) {
				f(p, sp.encoded)
				if !sp.encoded && !layered[p] {
					layered[p] = true
					f(jsonMinimal(p), false)
					f(jsonASCII(p), false)
				}
			}
		}
	}
}

// normalForms are the texts spelled for a value: the value, and its NFC
// and NFD forms where they differ (macOS file names and some input methods
// give NFD; Python's unicodedata.normalize either).
func normalForms(v string) []string {
	out := []string{v}
	for _, f := range []norm.Form{norm.NFC, norm.NFD} {
		if n := f.String(v); n != v && (len(out) == 1 || n != out[1]) {
			out = append(out, n)
		}
	}
	return out
}

func one(f func(string) string) func(string) []string {
	return func(v string) []string { return []string{f(v)} }
}

// cases is f's result with its percent escapes in upper and in lower case.
func cases(f func(string) string) func(string) []string {
	return func(v string) []string {
		s := f(v)
		return []string{s, lowerEscapes(s)}
	}
}

// percent percent-encodes every byte keep refuses (space as '+' with
// plus), in upper- and lower-case hex.
func percent(keep func(c byte) bool, plus bool) func(string) []string {
	return cases(func(v string) string {
		if strings.IndexFunc(v, func(r rune) bool { return r >= utf8.RuneSelf || !keep(byte(r)) }) < 0 {
			return v
		}
		const hexUpper = "0123456789ABCDEF"
		var b strings.Builder
		for i := 0; i < len(v); i++ {
			switch c := v[i]; {
			case keep(c):
				b.WriteByte(c)
			case c == ' ' && plus:
				b.WriteByte('+')
			default:
				b.WriteByte('%')
				b.WriteByte(hexUpper[c>>4])
				b.WriteByte(hexUpper[c&0xf])
			}
		}
		return b.String()
	})
}

// lowerEscapes lower-cases the two hex digits after each '%'.
func lowerEscapes(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = lowerASCII(b[i+1]), lowerASCII(b[i+2])
		}
	}
	return string(b)
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// plain reports whether v is printable ASCII without any of specials:
// what most spellings leave as it is.
func plain(v string, specials string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' || c >= 0x7f || strings.IndexByte(specials, c) >= 0 {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// unreserved are RFC 3986's unreserved characters: what every URL encoder
// leaves as it is.
func unreserved(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '.' || c == '~' }

func unquoted(q string) string { return q[1 : len(q)-1] }

func byteList(v string, f func(byte) string, sep string) string {
	parts := make([]string, len(v))
	for i := 0; i < len(v); i++ {
		parts[i] = f(v[i])
	}
	return strings.Join(parts, sep)
}

// jsonMinimal is the inside of a JSON string as JSON.stringify and Python's
// json.dumps(ensure_ascii=False) write it.
func jsonMinimal(v string) string { return jsonEscape(v, false, false) }

// jsonASCII is Python's json.dumps default (ensure_ascii): everything
// outside ' '…'~' as \uXXXX.
func jsonASCII(v string) string { return jsonEscape(v, true, false) }

// jsonGo is Go's encoding/json (<, >, &, U+2028 and U+2029 escaped, invalid
// UTF-8 as U+FFFD).
func jsonGo(v string) string {
	b, _ := json.Marshal(v)
	return unquoted(string(b))
}

// jsonEscape escapes v for a JSON string: '"', '\' and control characters
// always (as \n, \r, \t, \b, \f or \u00XX); DEL and every non-ASCII
// character as \uXXXX (UTF-16) with ascii; '/' as "\/" with slash.
func jsonEscape(v string, ascii, slash bool) string {
	specials := `"\`
	if slash {
		specials += "/"
	}
	if plain(v, specials) {
		return v
	}
	const hexDigits = "0123456789abcdef"
	b := make([]byte, 0, len(v)+16)
	u := func(x rune) {
		b = append(b, '\\', 'u', hexDigits[x>>12&0xf], hexDigits[x>>8&0xf], hexDigits[x>>4&0xf], hexDigits[x&0xf])
	}
	for i := 0; i < len(v); {
		c := v[i]
		if ascii && (c >= utf8.RuneSelf || c == 0x7f) {
			r, n := utf8.DecodeRuneInString(v[i:])
			if r > 0xffff {
				r1, r2 := utf16Pair(r)
				u(r1)
				u(r2)
			} else {
				u(r)
			}
			i += n
			continue
		}
		switch {
		case c == '"' || c == '\\' || c == '/' && slash:
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c < 0x20:
			u(rune(c))
		default:
			b = append(b, c)
		}
		i++
	}
	return string(b)
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// pythonQuote is the quote Python's repr() picks: ' unless the value holds
// a ' and no ".
func pythonQuote(v string) byte {
	if strings.IndexByte(v, '\'') >= 0 && strings.IndexByte(v, '"') < 0 {
		return '"'
	}
	return '\''
}

// pythonRepr is the inside of Python's repr() of a str (ascii(), with
// ascii): the chosen quote and '\' escaped, \t \n \r, and what
// str.isprintable() refuses as \xNN, \uNNNN or \UNNNNNNNN — with ascii,
// every non-ASCII character too. A byte that is not UTF-8 is what Python's
// surrogateescape makes of it, \udcNN.
func pythonRepr(v string, ascii bool) string {
	if plain(v, `'\`) {
		return v
	}
	q := pythonQuote(v)
	var b strings.Builder
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\udc%02x`, v[i])
			i++
			continue
		}
		i += n
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x7f && r >= ' ' || r > 0x7f && !ascii && unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

// pythonBytesRepr is the inside of Python's repr() of the value's bytes
// (b'…'): printable ASCII as it is, the quote and '\' escaped, \t \n \r,
// every other byte as \xNN.
func pythonBytesRepr(v string) string {
	if plain(v, `'\`) {
		return v
	}
	q := pythonQuote(v)
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c >= ' ' && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

// nodeInspect is the inside of Node's util.inspect of a string (what
// console.log prints of an object holding it): quoted with ' — with " when
// the value holds a ' and no ", with ` when it holds both and no ` — the
// quote (when ') and '\' escaped, \b \t \n \f \r, and the other C0 and C1
// controls and DEL as \xNN in upper case.
func nodeInspect(v string) string {
	if plain(v, `'\`) {
		return v
	}
	q := byte('\'')
	if strings.IndexByte(v, '\'') >= 0 {
		switch {
		case strings.IndexByte(v, '"') < 0:
			q = '"'
		case strings.IndexByte(v, '`') < 0 && !strings.Contains(v, "${"):
			q = '`'
		}
	}
	var b strings.Builder
	for _, r := range v {
		switch {
		case r == '\'' && q == '\'', r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			fmt.Fprintf(&b, `\x%02X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// bashPrintfQ is bash's printf %q, in a UTF-8 locale or in the C locale:
// a value with a character the locale cannot print is ANSI-C quoted (the
// inside of $'…'); any other has a backslash before each character the
// shell would read (and before a leading #, and a ~ where it is expanded).
func bashPrintfQ(v string, utf8Locale bool) string {
	if needsANSIC(v, utf8Locale) {
		return bashANSIC(v, utf8Locale)
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		tilde := c == '~' && (i == 0 || v[i-1] == ':' || v[i-1] == '=') // where the shell expands it
		if strings.IndexByte(" '\"\\|&;()<>!{}*[]?^$`,", c) >= 0 || tilde || i == 0 && c == '#' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// bashUnprintable reports whether bash's quoting escapes r: in a UTF-8
// locale the control characters (C0, DEL, C1) and the line and paragraph
// separators; in the C locale every byte outside ASCII too.
func bashUnprintable(r rune, utf8Locale bool) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && (!utf8Locale || r <= 0x9f || r == 0x2028 || r == 0x2029 || r == utf8.RuneError)
}

func needsANSIC(v string, utf8Locale bool) bool {
	return strings.IndexFunc(v, func(r rune) bool { return bashUnprintable(r, utf8Locale) }) >= 0
}

// bashANSIC is the inside of bash's $'…': \t \n \r \a \b \f \v \E, \' \\,
// and each byte of another character the locale cannot print as octal
// \NNN.
func bashANSIC(v string, utf8Locale bool) string {
	var b strings.Builder
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		if e := strings.IndexRune("\t\n\r\a\b\f\v\x1b'\\", r); e >= 0 && r < utf8.RuneSelf {
			b.WriteString([]string{`\t`, `\n`, `\r`, `\a`, `\b`, `\f`, `\v`, `\E`, `\'`, `\\`}[e])
		} else if bashUnprintable(r, utf8Locale) {
			for _, c := range []byte(v[i : i+n]) {
				fmt.Fprintf(&b, `\%03o`, c)
			}
		} else {
			b.WriteString(v[i : i+n])
		}
		i += n
	}
	return b.String()
}

// pythonHTMLEscape is Python's html.escape (quote=True).
var pythonHTMLEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;").Replace

// goTemplateHTML is what Go's html/template writes of a value in HTML text.
var goTemplateHTML = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;").Replace

// goXMLEscape is Go's xml.EscapeText: what XML cannot hold (most control
// characters, invalid UTF-8) as U+FFFD.
func goXMLEscape(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		i += n
		if k := strings.IndexRune("\"'&<>\t\n\r", r); k >= 0 {
			b.WriteString([]string{"&#34;", "&#39;", "&amp;", "&lt;", "&gt;", "&#x9;", "&#xA;", "&#xD;"}[k])
			continue
		}
		if r == utf8.RuneError && n == 1 || !(r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000) {
			r = '\uFFFD'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// markupMinimal escapes only &, < and > (Python's xml.sax.saxutils.escape).
var markupMinimal = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// base64Forms are v in base64, both alphabets: whole, padded and not, and
// the characters that depend on v alone when v starts at each offset (mod
// 3) inside longer encoded data.
func base64Forms(v string) []string {
	var out []string
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString([]byte(v)), enc.WithPadding(base64.NoPadding).EncodeToString([]byte(v)))
		for skip := range 3 {
			if skip >= len(v) {
				break
			}
			rest := v[skip:]
			rest = rest[:len(rest)/3*3]
			out = append(out, enc.EncodeToString([]byte(rest)))
		}
	}
	return out
}
