package annotations_test

import (
	"encoding/json"
	"fmt"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

func ExampleTool_Render() {
	m, err := annotations.Parse([]byte(`{
	  "version": 1,
	  "cli": {"command": "aeat", "args": ["--format", "json"]},
	  "tools": [{
	    "name": "modelo_303_pull",
	    "title": "Pull a modelo 303 return",
	    "description": "Downloads a filed modelo 303 from the AEAT sede.",
	    "command": ["modelo", "303", "pull"],
	    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true},
	    "params": [
	      {"name": "year", "type": "integer", "required": true, "flag": "--year"},
	      {"name": "dry_run", "type": "boolean", "flag": "--dry-run", "negate": "--no-dry-run"},
	      {"name": "tags", "type": "array", "items": "string", "flag": "--tag"},
	      {"name": "nif", "type": "string", "positional": true}
	    ]
	  }]
	}`), "")
	if err != nil {
		panic(err)
	}
	tool := m.Tools[0]
	args, err := tool.Validate(json.RawMessage(`{"nif": "-B1234567", "tags": ["a", "b c"], "year": 2025, "dry_run": false}`))
	if err != nil {
		panic(err)
	}
	inv, _ := tool.Render(args, false)
	fmt.Printf("%q\n", inv.Argv)
	fmt.Println(tool.Tier(), tool.Ceiling(annotations.DefaultCeilings))
	// Output:
	// ["--format" "json" "modelo" "303" "pull" "--year=2025" "--no-dry-run" "--tag=a" "--tag=b c" "--" "-B1234567"]
	// live 7m0s
}

func ExampleTool_Validate() {
	m, _ := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "aeat"}, "tools": [{
	  "name": "ledger_list", "title": "List ledger entries", "description": "Lists entries.",
	  "command": ["ledger", "list"],
	  "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
	  "params": [{"name": "limit", "type": "integer", "flag": "--limit", "minimum": 1, "default": 50}]
	}]}`), "")
	tool := m.Tools[0]
	_, err := tool.Validate(json.RawMessage(`{"limit": 0}`))
	fmt.Println(err)
	_, err = tool.Validate(json.RawMessage(`{"limt": 5}`))
	fmt.Println(err)
	args, _ := tool.Validate(nil)
	fmt.Println(args.Get("limit"))
	// Output:
	// argument "limit": must be at least 1 (got 0)
	// argument "limt": unknown argument; this tool takes limit
	// 50 true
}
