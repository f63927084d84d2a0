package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
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
	// jsonc: the host reads JSON with comments and trailing commas (VS Code,
	// Cursor), so a merge keeps them; the others read strict JSON.
	jsonc bool
	// where is the file on each platform, as a person reads it.
	where hostPaths
	// path finds the file on a machine.
	path func(m machine) (location, error)
	// note is what a person should know, once the entry is in file under
	// name, about how the host loads it and what they see.
	note func(file, name string) string
	// commands, when set, prints the host's own commands that add the
	// entry (Claude Code's claude mcp add), with the printed snippet.
	commands func(w io.Writer, name string, entry serverEntry)
}

// hostPaths is where a host keeps its file on each platform, as a person
// reads it: fields, not a map, so that the hosts' table is laid out by the
// compiler rather than built in package init at every start (a server's
// too, which never reads it).
type hostPaths struct{ darwin, windows, linux string }

// on is the path on goos ("" for another OS).
func (p hostPaths) on(goos string) string {
	switch goos {
	case "darwin":
		return p.darwin
	case "windows":
		return p.windows
	case "linux":
		return p.linux
	}
	return ""
}

// always is a note that does not depend on the file.
func always(note string) func(file, name string) string {
	return func(string, string) string { return note }
}

// machine is what a host's file is looked for on: its OS, environment,
// home and file system are parameters, so every OS's case runs anywhere.
type machine struct {
	goos   string
	getenv func(string) string
	home   string
	// glob lists the paths matching a pattern (filepath.Glob on this machine).
	glob func(pattern string) ([]string, error)
	// exists says whether a path exists.
	exists func(path string) bool
}

// machine is the machine aeat-mcp runs on, goos, seen through the
// system's environment: the home is where os.UserHomeDir finds it.
func (s *system) machine(goos string) machine {
	getenv := func(name string) string { v, _ := s.lookupEnv(name); return v }
	home := getenv("HOME")
	if goos == "windows" {
		home = getenv("USERPROFILE")
	}
	return machine{goos: goos, getenv: getenv, home: home, glob: filepath.Glob,
		exists: func(p string) bool { _, err := os.Stat(p); return err == nil }}
}

// location is a host's file on a machine, and why that one when the host
// has several ("" when it has one).
type location struct {
	path string
	why  string
}

var hosts = []*host{
	{
		name: "claude-desktop", title: "Claude Desktop", key: "mcpServers",
		where: hostPaths{
			darwin:  "~/Library/Application Support/Claude/claude_desktop_config.json",
			windows: `%LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude\claude_desktop_config.json (the Microsoft Store / MSIX app, the default installer since February 2026), else %APPDATA%\Claude\claude_desktop_config.json (the older installer)`,
			linux:   "~/.config/Claude/claude_desktop_config.json",
		},
		path: claudeDesktopPath,
		note: always("Quit Claude Desktop completely and start it again: it reads the file at start-up. It passes servers only a few variables, so settings go in the entry's env block."),
	},
	{
		name: "claude-code", title: "Claude Code", key: "mcpServers", stdioType: true,
		where: hostPaths{darwin: "~/.claude.json", windows: `%USERPROFILE%\.claude.json`, linux: "~/.claude.json"},
		path: func(m machine) (location, error) {
			if dir := m.getenv("CLAUDE_CONFIG_DIR"); dir != "" {
				return location{path: filepath.Join(dir, ".claude.json")}, nil
			}
			return location{path: filepath.Join(m.home, ".claude.json")}, nil
		},
		note:     claudeCodeNote,
		commands: claudeCodeCommands,
	},
	{
		name: "cursor", title: "Cursor", key: "mcpServers", jsonc: true,
		where: hostPaths{darwin: "~/.cursor/mcp.json", windows: `%USERPROFILE%\.cursor\mcp.json`, linux: "~/.cursor/mcp.json"},
		path: func(m machine) (location, error) {
			return location{path: filepath.Join(m.home, ".cursor", "mcp.json")}, nil
		},
		note: always("Cursor picks the file up in Settings → MCP; toggle the server off and on after a change."),
	},
	{
		name: "vscode", title: "VS Code", key: "servers", stdioType: true, jsonc: true,
		where: hostPaths{
			darwin:  "~/Library/Application Support/Code/User/mcp.json",
			windows: `%APPDATA%\Code\User\mcp.json`,
			linux:   "~/.config/Code/User/mcp.json",
		},
		path: func(m machine) (location, error) {
			return location{path: filepath.Join(appConfigDir(m), "Code", "User", "mcp.json")}, nil
		},
		note: always("This is the user-level mcp.json (Command Palette: MCP: Open User Configuration); a workspace's .vscode/mcp.json takes the same entry under \"servers\". VS Code asks you to trust a server the first time it starts it."),
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
func appConfigDir(m machine) string {
	switch m.goos {
	case "darwin":
		return filepath.Join(m.home, "Library", "Application Support")
	case "windows":
		if d := m.getenv("APPDATA"); d != "" {
			return d
		}
		return filepath.Join(m.home, "AppData", "Roaming")
	}
	if d := m.getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	return filepath.Join(m.home, ".config")
}

// claudeDesktopPath is Claude Desktop's file. On Windows the MSIX app (the
// Microsoft Store's, and the claude.ai installer's since February 2026)
// runs in a package container: it reads
// %LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude\…, and
// never the %APPDATA%\Claude\… file the older (Squirrel) installer reads.
// When a Claude_* package folder exists, that is the file; of several, the
// one that already has a configuration file; several with none (or several
// with one) cannot be told apart and are an error naming them.
func claudeDesktopPath(m machine) (location, error) {
	const file = "claude_desktop_config.json"
	if m.goos != "windows" {
		return location{path: filepath.Join(appConfigDir(m), "Claude", file)}, nil
	}
	classic := location{path: filepath.Join(appConfigDir(m), "Claude", file),
		why: "no Claude_* package under %LOCALAPPDATA%\\Packages: the classic (non-MSIX) Claude Desktop's file"}
	local := m.getenv("LOCALAPPDATA")
	if local == "" {
		return classic, nil
	}
	matches, _ := m.glob(filepath.Join(local, "Packages", "Claude_*"))
	var packages []string
	for _, p := range matches {
		if m.exists(p) {
			packages = append(packages, p)
		}
	}
	sort.Strings(packages)
	inPackage := func(p string) string { return filepath.Join(p, "LocalCache", "Roaming", "Claude", file) }
	switch len(packages) {
	case 0:
		return classic, nil
	case 1:
		return location{path: inPackage(packages[0]), why: "the Microsoft Store (MSIX) Claude Desktop's file: that app reads no other"}, nil
	}
	var withFile []string
	for _, p := range packages {
		if m.exists(inPackage(p)) {
			withFile = append(withFile, p)
		}
	}
	if len(withFile) == 1 {
		return location{path: inPackage(withFile[0]), why: "the Microsoft Store (MSIX) Claude Desktop's file (of several Claude_* packages, the one with a configuration file)"}, nil
	}
	var files []string
	for _, p := range packages {
		files = append(files, inPackage(p))
	}
	return location{}, fmt.Errorf("several Claude Desktop (MSIX) packages, and aeat-mcp cannot tell which one runs: pass --file with one of %q", files)
}

// serverEntry is one server in a host's configuration.
type serverEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// A merge is one --write: entry under file[key][name].
type merge struct {
	path  string // the file as the person names it (it may be a symlink)
	key   string
	name  string
	entry serverEntry
	jsonc bool
	now   time.Time
	// makeDirs: the file's missing folders are made — for the host's own
	// file, whose folder a host not yet started may not have made. A path
	// the person typed (--file) is not: a typo would quietly make a file
	// no host reads.
	makeDirs bool
	// beforeReplace, when set (tests), runs between the read and the
	// replace: another program writing the file.
	beforeReplace func(target string)
}

// merged is what a merge did.
type merged struct {
	changed bool
	// target is the file written: path, or where its symlinks lead.
	target string
	// backup is the old file's copy ("" when there was none).
	backup string
}

// writeAttempts bounds how often a merge starts over when the file changes
// between its read and its replace (another program writing it).
const writeAttempts = 5

// run merges the entry into the file and writes it only if that changes
// it: a backup of the old file first (its own name, never another's), then
// a new file renamed over the old one, so a crash leaves the old file or
// the new one, never half of one. It writes where the path's symlinks lead
// (a dotfile manager's link stays a link). Writers are one at a time (a
// lock per file), and a merge whose file changed after it was read starts
// over, so concurrent writers keep each other's entries. It refuses,
// untouched, a file that is not a JSON object it can merge into, and a file
// its owner made read-only.
// projectFolders are the folders a host reads in a project (VS Code's
// .vscode/mcp.json, Cursor's .cursor/mcp.json): a fresh project may not
// have one yet, so --file makes it — only it, in a folder that is there.
var projectFolders = []string{".vscode", ".cursor"}

// folder makes sure target's folder is there: made when mg.makeDirs (or
// it is a project folder of a host), else refused with what to check.
func (mg merge) folder(target string) error {
	dir := filepath.Dir(target)
	if mg.makeDirs {
		return os.MkdirAll(dir, 0o700)
	}
	if slices.Contains(projectFolders, filepath.Base(dir)) {
		if fi, err := os.Stat(filepath.Dir(dir)); err == nil && fi.IsDir() {
			return os.MkdirAll(dir, 0o755)
		}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("--file %s: the folder %s is not there — config makes the file, not the folders you name (check the path; make the folder first if it is meant)", mg.path, dir)
	}
	return nil
}

func (mg merge) run() (merged, error) {
	want, err := json.Marshal(mg.entry)
	if err != nil {
		return merged{}, err
	}
	target, err := followLinks(mg.path)
	if err != nil {
		return merged{}, err
	}
	res := merged{target: target}
	if err := mg.folder(target); err != nil {
		return res, err
	}
	unlock, err := lockFile(lockPath(target))
	if err != nil {
		return res, fmt.Errorf("waiting for the other writers of %s: %w", target, err)
	}
	defer unlock()
	for attempt := 1; ; attempt++ {
		old, err := os.ReadFile(target)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, err
		}
		mode := fs.FileMode(0o600) // it may hold settings and secrets in env
		if exists {
			fi, err := os.Stat(target)
			if err != nil {
				return res, err
			}
			mode = fi.Mode().Perm()
			if mode&0o200 == 0 {
				return res, fmt.Errorf("%s is read-only (mode %v); it was not changed: make it writable to let aeat-mcp merge into it, or add the entry by hand", target, mode)
			}
		}
		out, changed, err := mergeEntry(old, mg.key, mg.name, want, mg.jsonc)
		if err != nil {
			return res, fmt.Errorf("%s: %v; it was not changed: add the entry by hand", target, err)
		}
		if !changed {
			return res, nil
		}
		if exists {
			if res.backup, err = writeBackup(mg.path, old, mode, mg.now); err != nil {
				return res, fmt.Errorf("backing up %s: %w", target, err)
			}
		}
		if mg.beforeReplace != nil {
			mg.beforeReplace(target)
		}
		// Another program (the host itself) may have written the file since
		// it was read: start over from what it wrote.
		if now, err := os.ReadFile(target); (err == nil) != exists || !bytes.Equal(now, old) {
			if res.backup != "" {
				os.Remove(res.backup)
				res.backup = ""
			}
			if attempt < writeAttempts {
				continue
			}
			return res, fmt.Errorf("%s kept changing while aeat-mcp wrote it (%d tries); it was not changed: try again", target, attempt)
		}
		if err := replaceFile(target, out, mode); err != nil {
			return res, err
		}
		res.changed = true
		return res, nil
	}
}

// followLinks is where path's symlinks lead (the file itself, which may
// not exist yet), so a write replaces the file and leaves the link. Only
// the last element needs following: a rename goes through the directories'
// links by itself.
func followLinks(path string) (string, error) {
	p := path
	for range 64 {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// writeBackup copies the old file beside path under a name no other backup
// has: the time, then -2, -3… for writes in the same second.
func writeBackup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := fmt.Sprintf("%s.aeat-mcp-backup-%s", path, now.Format("20060102T150405"))
	for n := 1; n < 1000; n++ {
		name := base
		if n > 1 {
			name += "-" + strconv.Itoa(n)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			os.Remove(name)
			return "", err
		}
		if err := f.Close(); err != nil {
			os.Remove(name)
			return "", err
		}
		return name, nil
	}
	return "", fmt.Errorf("%s-*: too many backups in one second", base)
}

// lockPath is the lock file of a configuration file: in the user's cache
// (never beside the file, which a person reads), one per file, kept (a
// removed lock file could be locked twice).
func lockPath(target string) string {
	sum := sha256.Sum256([]byte(target))
	name := "config-" + hex.EncodeToString(sum[:8]) + ".lock"
	if dir, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(dir, "aeat-mcp")
		if os.MkdirAll(dir, 0o700) == nil {
			return filepath.Join(dir, name)
		}
	}
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".aeat-mcp.lock")
}

// replaceFile writes data to a new file beside path and renames it over
// path (atomic on one file system, Windows included; see replaceRename for
// what Windows needs more).
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
	return replaceRename(tmp.Name(), path)
}
