#!/usr/bin/env python3
"""The spellings of a secret as the libraries themselves print them.

The Go table of spellings (callruntime/spellings.go) re-implements what
Python, JavaScript and the shell make of a value; this script asks the real
ones, so that a test can hold the table to them.

  spellings.py oracle           stdin: a JSON list of values; stdout: a JSON
                                list, one object per value: the name of an
                                entry of the Go table -> the texts the
                                library printed (quotes the library adds
                                left out)
  spellings.py echo MODE        a careless CLI: reads its secret on stdin and
                                prints it back in every spelling the oracle
                                gives (and wrapped: textwrap, MIME base64),
                                each write cut in two; MODE "ok" prints the
                                spellings on stdout and as progress lines on
                                stderr and exits 0; "err" prints progress,
                                then a JSON error document quoting every
                                spelling on stderr, and exits 2; "json"
                                prints one JSON object of them on stdout.
                                What it printed goes, as a JSON list, to the
                                file SPELLINGS_PRINTED names (beside the
                                server, for the test to look for).
"""
import base64
import csv
import html
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import textwrap
import time
import unicodedata
import urllib.parse
import xml.sax.saxutils

NODE = r"""
const util = require('util');
const values = JSON.parse(require('fs').readFileSync(0, 'utf8'));
console.log(JSON.stringify(values.map(s => {
  const out = {
    'JSON: JSON.stringify, Python json.dumps(ensure_ascii=False)': [JSON.stringify(s).slice(1, -1)],
    'Node util.inspect, console.log of an object': [util.inspect(s).slice(1, -1)],
    'URL: JS encodeURIComponent': [encodeURIComponent(s)],
    'URL: JS encodeURI': [encodeURI(s)],
    'URL: JS URLSearchParams': [new URLSearchParams({k: s}).toString().slice(2)],
  };
  const b = Buffer.from(s);
  if (b.length <= 50) out['Node Buffer inspect (<Buffer 68 75 …>)'] = [util.inspect(b).slice(8, -1)];
  return out;
})));
"""

BASH = r"""while IFS= read -r -d '' v; do printf '%q\0%s\0' "$v" "${v@Q}"; done"""


def unquote(s, q="'"):
    return s[1:-1] if len(s) >= 2 and s[0] == q and s[-1] == q else s


def python_spellings(s):
    b = s.encode("utf-8", "surrogateescape")
    row = io.StringIO()
    csv.writer(row).writerow([s])
    return {
        "as given": [s],
        "JSON: JSON.stringify, Python json.dumps(ensure_ascii=False)": [json.dumps(s, ensure_ascii=False)[1:-1]],
        "JSON: Python json.dumps (ASCII only)": [json.dumps(s)[1:-1]],
        "JSON inside a JSON string": [
            json.dumps(json.dumps(s))[3:-3],
            json.dumps(json.dumps(s, ensure_ascii=False), ensure_ascii=False)[3:-3],
            json.dumps(json.dumps(s, ensure_ascii=False))[3:-3],
        ],
        "Python repr()": [repr(s)[1:-1]],
        "Python ascii()": [ascii(s)[1:-1]],
        "Python repr() of bytes": [repr(b)[2:-1]],
        "Python shlex.quote": [unquote(shlex.quote(s))],
        "CSV: Python csv, Go encoding/csv": [unquote(row.getvalue()[:-2], '"')],
        "HTML: Python html.escape": [html.escape(s)],
        "XML: Python xml.sax.saxutils.escape (& < > only)": [xml.sax.saxutils.escape(s)],
        "URL: Python urllib.parse.quote (safe='/')": [urllib.parse.quote(s)],
        "URL: Python quote(safe='')": [urllib.parse.quote(s, safe="")],
        "URL: Python quote_plus, Go url.QueryEscape": [urllib.parse.quote_plus(s)],
        "base64 (standard, URL; padded or not; inside longer data; MIME's 76 columns)": [
            base64.b64encode(b).decode(), base64.urlsafe_b64encode(b).decode(),
            base64.b64encode(b).decode().rstrip("="),
        ],
        "hex: Go hex.EncodeToString, %x, %X, Python bytes.hex()": [b.hex()],
    }


def oracle(values):
    out = [python_spellings(s) for s in values]
    for s, o in zip(values, out):
        # NFC and NFD are not spellings of the table but values it spells:
        # the oracle names them for the test to check normalForms.
        o["NFC"] = [unicodedata.normalize("NFC", s)]
        o["NFD"] = [unicodedata.normalize("NFD", s)]
    node = shutil.which("node")
    if node:
        js = subprocess.run([node, "-e", NODE], input=json.dumps(values), capture_output=True, text=True, check=True)
        for o, more in zip(out, json.loads(js.stdout)):
            for k, v in more.items():
                o.setdefault(k, []).extend(v)
    bash = shutil.which("bash")
    if bash:
        quotable = [(s, o) for s, o in zip(values, out) if "\0" not in s]  # NUL is not in an argument
        for locale in ("C.UTF-8", "C"):
            given = b"".join(s.encode("utf-8", "surrogateescape") + b"\0" for s, _ in quotable)
            got = subprocess.run([bash, "-c", BASH], input=given, env=dict(os.environ, LC_ALL=locale),
                                 capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape").split("\0")
            for i, (s, o) in enumerate(quotable):
                q, at = got[2 * i], got[2 * i + 1]
                o.setdefault("bash printf %q", []).append(q[2:-1] if q.startswith("$'") else q)
                o.setdefault("POSIX sh single quotes, bash ${v@Q}", []).append(at[2:-1] if at.startswith("$'") else unquote(at))
    return out


def written(stream, text):
    """Writes text in two pieces, flushed apart: a reader may get them in
    two reads, and a secret split between them."""
    cut = len(text) // 2
    for piece in (text[:cut], text[cut:]):
        stream.write(piece)
        stream.flush()
        time.sleep(0.002)


def echo(mode):
    secret = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(encoding="utf-8", errors="surrogateescape")
    forms = []
    for name, texts in oracle([secret])[0].items():
        if name in ("NFC", "NFD"):
            continue
        forms += texts
    for n in ("NFC", "NFD"):
        forms.append(unicodedata.normalize(n, secret))
        forms.append(json.dumps(unicodedata.normalize(n, secret))[1:-1])
    forms = sorted(set(f for f in forms if f))
    wrapped = [
        textwrap.fill("the value you gave was refused by the portal: " + secret, width=70, subsequent_indent="    "),
        base64.encodebytes(b"user:" + secret.encode() + b":" + b"x" * 40).decode(),
        base64.encodebytes(secret.encode() * 2).decode(),
    ]
    with open(os.environ["SPELLINGS_PRINTED"], "w") as f:
        json.dump({"forms": forms, "wrapped": wrapped}, f)
    lines = ["got %s" % f for f in forms] + wrapped
    if mode == "json":
        written(sys.stdout, json.dumps({"input_%d" % i: f for i, f in enumerate(forms + wrapped)}) + "\n")
        return 0
    for line in lines:
        written(sys.stderr, "reading " + line + "\n")
    if mode == "ok":
        for line in lines:
            written(sys.stdout, line + "\n")
        return 0
    written(sys.stderr, json.dumps({"error": {"code": "BAD_SECRET", "message": "could not parse: " + " | ".join(lines)}}) + "\n")
    return 2


if __name__ == "__main__":
    if sys.argv[1] == "oracle":
        json.dump(oracle(json.load(sys.stdin)), sys.stdout, ensure_ascii=True)
    else:
        sys.exit(echo(sys.argv[2] if sys.argv[1] == "echo" else sys.argv[1]))
