package warm

import _ "embed"

// templateSource is the template's Python, run with python -c: nothing is
// written to disk, and the binary carries it.
//
//go:embed template.py
var templateSource string
