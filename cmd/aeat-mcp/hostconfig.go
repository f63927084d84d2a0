package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"time"
)

// A host is an MCP host whose configuration aeat-mcp can write: where it
// keeps the file on each platform, under which key it lists servers, and
// the shape of one server's entry.
type host struct {
	name  string
	title string
	// key holds the servers in the file: "mcpServers", or VS Code's "servers".
	key string
	// stdioType: the entry says "type": "stdio" (Claude Code, VS Code).
	stdioType bool
	// where is the file on each platform, as a person reads it.
	where map[string]string
	// path is the file on this machine.
	path func(goos string, getenv func(string) string, home string) string
	// note is what a person should know about this host's loading.
	note string
}

var hosts = []*host{
	{
		name: "claude-desktop", title: "Claude Desktop", key: "mcpServers",
		where: map[string]string{
			"darwin":  "~/Library/Application Support/Claude/claude_desktop_config.json",
			"windows": `%APPDATA%\Claude\claude_desktop_config.json`,
			"linux":   "~/.config/Claude/claude_desktop_config.json",
		},
		path: func(goos string, getenv func(string) string, home string) string {
			return filepath.Join(appConfigDir(goos, getenv, home), "Claude", "claude_desktop_config.json")
		},
		note: "Quit Claude Desktop completely and start it again: it reads the file at start-up. It passes servers only a few variables, so the env block below is where settings go.",
	},
	{
		name: "claude-code", title: "Claude Code", key: "mcpServers", stdioType: true,
		where: map[string]string{"darwin": "~/.claude.json", "windows": `%USERPROFILE%\.claude.json`, "linux": "~/.claude.json"},
		path: func(_ string, getenv func(string) string, home string) string {
			if dir := getenv("CLAUDE_CONFIG_DIR"); dir != "" {
				return filepath.Join(dir, ".claude.json")
			}
			return filepath.Join(home, ".claude.json")
		},
		note: "This is the user scope (top-level mcpServers of ~/.claude.json): Claude Code loads it in every project without asking. A project's .mcp.json waits for each person's approval in Claude Code; claude mcp add --scope user, or --write here, does not.",
	},
	{
		name: "cursor", title: "Cursor", key: "mcpServers",
		where: map[string]string{"darwin": "~/.cursor/mcp.json", "windows": `%USERPROFILE%\.cursor\mcp.json`, "linux": "~/.cursor/mcp.json"},
		path: func(_ string, _ func(string) string, home string) string {
			return filepath.Join(home, ".cursor", "mcp.json")
		},
		note: "Cursor picks the file up in Settings → MCP; toggle the server off and on after a change.",
	},
	{
		name: "vscode", title: "VS Code", key: "servers", stdioType: true,
		where: map[string]string{
			"darwin":  "~/Library/Application Support/Code/User/mcp.json",
			"windows": `%APPDATA%\Code\User\mcp.json`,
			"linux":   "~/.config/Code/User/mcp.json",
		},
		path: func(goos string, getenv func(string) string, home string) string {
			return filepath.Join(appConfigDir(goos, getenv, home), "Code", "User", "mcp.json")
		},
		note: "This is the user-level mcp.json (Command Palette: MCP: Open User Configuration); a workspace's .vscode/mcp.json takes the same entry under \"servers\". VS Code asks you to trust a server the first time it starts it.",
	},
}

func hostNamed(name string) *host {
	for _, h := range hosts {
		if h.name == name {
			return h
		}
	}
	return nil
}

// appConfigDir is where desktop applications keep their configuration.
func appConfigDir(goos string, getenv func(string) string, home string) string {
	switch goos {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support")
	case "windows":
		if d := getenv("APPDATA"); d != "" {
			return d
		}
		return filepath.Join(home, "AppData", "Roaming")
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	return filepath.Join(home, ".config")
}

// serverEntry is one server in a host's configuration.
type serverEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// mergeServer puts entry under file[key][name], keeping every other key
// and server as they are (in their order), and writes the file only if
// that changes it: a backup of the old file first, then a new file renamed
// over it, so a crash leaves the old file or the new one, never half of
// one. A file that is not a JSON object is refused, untouched.
func mergeServer(path, key, name string, entry serverEntry, now time.Time) (changed bool, backup string, err error) {
	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, "", err
	}
	root := &ordered{}
	if exists && len(bytes.TrimSpace(old)) > 0 {
		if err := root.UnmarshalJSON(old); err != nil {
			return false, "", fmt.Errorf("%s is not a JSON object aeat-mcp can merge into (%v); it was not changed: add the entry by hand", path, err)
		}
	}
	servers := &ordered{}
	if raw, ok := root.get(key); ok {
		if err := servers.UnmarshalJSON(raw); err != nil {
			return false, "", fmt.Errorf("%s: %q is not an object (%v); it was not changed", path, key, err)
		}
	}
	want, err := json.Marshal(entry)
	if err != nil {
		return false, "", err
	}
	if have, ok := servers.get(name); ok && sameJSON(have, want) {
		return false, "", nil
	}
	servers.set(name, want)
	rawServers, _ := servers.MarshalJSON()
	root.set(key, rawServers)
	compact, _ := root.MarshalJSON()
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return false, "", err
	}
	out.WriteByte('\n')

	mode := fs.FileMode(0o600) // it may hold settings and secrets in env
	if exists {
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		backup = fmt.Sprintf("%s.aeat-mcp-backup-%s", path, now.Format("20060102T150405"))
		if err := os.WriteFile(backup, old, mode); err != nil {
			return false, "", fmt.Errorf("backing up %s: %w", path, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, "", err
	}
	return true, backup, replaceFile(path, out.Bytes(), mode)
}

// replaceFile writes data to a new file beside path and renames it over
// path (atomic on one file system, Windows included).
func replaceFile(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up after a failure
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// ordered is a JSON object that keeps its keys' order and its values'
// exact text, so a merge changes nothing but the entry it writes.
type ordered struct {
	keys []string
	vals map[string]json.RawMessage
}

func (o *ordered) get(k string) (json.RawMessage, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *ordered) set(k string, v json.RawMessage) {
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *ordered) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil {
		return err
	} else if tok != json.Delim('{') {
		return errors.New("not an object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		o.set(tok.(string), v)
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if _, err := dec.Token(); err == nil {
		return errors.New("data after the object")
	}
	return nil
}

func (o *ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
