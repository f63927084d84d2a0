package packaging

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/aeatfacts"
	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	registryTemplate = "registry/server.json"
	registrySchema   = "registry/server.schema.2025-12-11.json"
	bundleTemplate   = "mcpb/manifest.json"
	launcher         = "mcpb/launch.sh"
	aeatManifest     = "../examples/aeat.manifest.json"
	releaseBase      = "https://github.com/aeat-mcp/aeat-mcp/releases/download/"
)

// registryResolved is the registry's server.json schema (draft-07, its
// definitions resolved).
func registryResolved(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	raw, err := os.ReadFile(registrySchema)
	require.NoError(t, err)
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(raw, &s))
	require.Equal(t, "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", s.ID)
	r, err := s.Resolve(nil)
	require.NoError(t, err)
	return r
}

// serverJSON is what the tests read of a server.json.
type serverJSON struct {
	Schema   string `json:"$schema"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	Packages []struct {
		RegistryType string `json:"registryType"`
		Identifier   string `json:"identifier"`
		Version      string `json:"version"`
		FileSHA256   string `json:"fileSha256"`
		Transport    struct {
			Type string `json:"type"`
		} `json:"transport"`
	} `json:"packages"`
}

// checkServerJSON validates a server.json against the schema and the
// project's own rules, and returns it.
func checkServerJSON(t *testing.T, file string) serverJSON {
	t.Helper()
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	var instance any
	require.NoError(t, json.Unmarshal(raw, &instance))
	require.NoError(t, registryResolved(t).Validate(instance), "%s against the 2025-12-11 schema", file)

	var s serverJSON
	require.NoError(t, json.Unmarshal(raw, &s))
	assert.Equal(t, "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", s.Schema)
	// The GitHub namespace the registry authenticates: the module's owner.
	mod, err := os.ReadFile("../go.mod")
	require.NoError(t, err)
	owner := regexp.MustCompile(`(?m)^module github\.com/([^/]+)/`).FindSubmatch(mod)
	require.NotNil(t, owner)
	assert.Equal(t, "io.github."+string(owner[1])+"/aeat-mcp", s.Name)
	require.Len(t, s.Packages, 1)
	p := s.Packages[0]
	assert.Equal(t, "mcpb", p.RegistryType)
	assert.Equal(t, "stdio", p.Transport.Type)
	assert.Equal(t, s.Version, p.Version)
	assert.Equal(t, releaseBase+"v"+s.Version+"/aeat-mcp-"+s.Version+".mcpb", p.Identifier, "the bundle, as a release asset")
	return s
}

// TestServerJSON_Template: the template scripts/bundle fills is valid
// and names the bundle as the release asset of its version.
func TestServerJSON_Template(t *testing.T) {
	s := checkServerJSON(t, registryTemplate)
	assert.Empty(t, s.Packages[0].FileSHA256, "the template has no hash: scripts/bundle writes the uploaded file's")
}

// TestServerJSON_Schema: the vendored schema refuses what the registry
// refuses (so a pass above means something).
func TestServerJSON_Schema(t *testing.T) {
	r := registryResolved(t)
	for name, doc := range map[string]string{
		"no version":           `{"name": "io.github.a/b", "description": "d"}`,
		"a name with no /":     `{"name": "aeat-mcp", "description": "d", "version": "1.0.0"}`,
		"a long description":   `{"name": "io.github.a/b", "description": "` + strings.Repeat("x", 101) + `", "version": "1.0.0"}`,
		"a bad hash":           `{"name": "io.github.a/b", "description": "d", "version": "1.0.0", "packages": [{"registryType": "mcpb", "identifier": "https://x/y.mcpb", "fileSha256": "ABC", "transport": {"type": "stdio"}}]}`,
		"no transport":         `{"name": "io.github.a/b", "description": "d", "version": "1.0.0", "packages": [{"registryType": "mcpb", "identifier": "https://x/y.mcpb"}]}`,
		"an unknown transport": `{"name": "io.github.a/b", "description": "d", "version": "1.0.0", "packages": [{"registryType": "mcpb", "identifier": "https://x/y.mcpb", "transport": {"type": "pigeon"}}]}`,
	} {
		var v any
		require.NoError(t, json.Unmarshal([]byte(doc), &v))
		assert.Error(t, r.Validate(v), name)
	}
}

// TestServerJSON_Release checks the server.json scripts/bundle wrote for
// a built bundle: valid, and its package is that very file.
func TestServerJSON_Release(t *testing.T) {
	file, bundle := os.Getenv("AEAT_MCP_SERVER_JSON"), os.Getenv("AEAT_MCP_BUNDLE")
	if file == "" || bundle == "" {
		t.Skip("AEAT_MCP_SERVER_JSON and AEAT_MCP_BUNDLE are set by .ci/run after scripts/bundle")
	}
	s := checkServerJSON(t, file)
	data, err := os.ReadFile(bundle)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	assert.Equal(t, hex.EncodeToString(sum[:]), s.Packages[0].FileSHA256, "the hash of the file to upload")
	assert.Equal(t, filepath.Base(bundle), path.Base(s.Packages[0].Identifier), "the package entry names the bundle")
	m := bundleManifestIn(t, bundle)
	assert.Equal(t, s.Version, m.Version)
}

// bundleManifest is what the tests read of an MCP Bundle's manifest.json.
type bundleManifest struct {
	ManifestVersion string `json:"manifest_version"`
	Name            string `json:"name"`
	Version         string `json:"version"`
	Icon            string `json:"icon"`
	Server          struct {
		Type       string `json:"type"`
		EntryPoint string `json:"entry_point"`
		MCPConfig  struct {
			Command           string            `json:"command"`
			Args              []string          `json:"args"`
			Env               map[string]string `json:"env"`
			PlatformOverrides map[string]struct {
				Command string            `json:"command"`
				Args    []string          `json:"args"`
				Env     map[string]string `json:"env"`
			} `json:"platform_overrides"`
		} `json:"mcp_config"`
	} `json:"server"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Compatibility struct {
		Platforms []string `json:"platforms"`
	} `json:"compatibility"`
	UserConfig map[string]struct {
		Type        string `json:"type"`
		Description string `json:"description"`
		Required    bool   `json:"required"`
		Sensitive   bool   `json:"sensitive"`
		Default     any    `json:"default"`
	} `json:"user_config"`
}

var placeholderRE = regexp.MustCompile(`\$\{([^}]*)\}`)

// TestBundleManifest_Template holds the bundle's manifest to what Claude
// Desktop does with it (measured with @anthropic-ai/mcpb 2.1.2):
//   - it unpacks files without the execute bit on macOS: the command is
//     /bin/sh on the launcher, never a bundled binary (Windows runs the
//     .exe, which needs no bit);
//   - an optional setting without a default reaches the server as the
//     literal "${user_config.x}": each has one, and settings go to the
//     environment only (an empty variable is ignored; an empty argument
//     would be an argument);
//   - every setting is used, and every placeholder is a setting or a
//     variable Claude Desktop substitutes;
//   - the variables it sets are ones aeat-mcp reads (the --global names are
//     the example manifest's shared params) or the CLI reads (facts.json).
func TestBundleManifest_Template(t *testing.T) {
	raw, err := os.ReadFile(bundleTemplate)
	require.NoError(t, err)
	var m bundleManifest
	require.NoError(t, json.Unmarshal(raw, &m))
	cfg := m.Server.MCPConfig

	assert.Equal(t, "binary", m.Server.Type)
	assert.Equal(t, "server/launch.sh", m.Server.EntryPoint)
	assert.Equal(t, "/bin/sh", cfg.Command, "the launcher restores the execute bit Claude Desktop drops")
	assert.Equal(t, []string{"${__dirname}/server/launch.sh"}, cfg.Args)
	win := cfg.PlatformOverrides["win32"]
	assert.Equal(t, "${__dirname}${/}server${/}windows-amd64${/}aeat-mcp.exe", win.Command)
	assert.NotNil(t, win.Args, "an explicit empty list: the launcher is not an argument of the .exe")
	assert.Empty(t, win.Args)
	assert.Nil(t, win.Env, "an override's env replaces the whole env: none, so the settings reach Windows too")
	assert.ElementsMatch(t, []string{"darwin", "win32", "linux"}, m.Compatibility.Platforms)
	assert.Equal(t, "icon.png", m.Icon, "the icon scripts/bundle puts at the bundle's root (TestIcon draws it)")
	assert.FileExists(t, filepath.Join("mcpb", m.Icon))
	assert.Contains(t, m.UserConfig["aeat_cli"].Description, "⌘⇧.",
		"aeat is often in ~/.local/bin, a folder macOS's file dialog hides until ⌘⇧. (Command-Shift-period)")

	used := map[string]bool{}
	for name, v := range cfg.Env {
		for _, ph := range placeholderRE.FindAllStringSubmatch(v, -1) {
			key, isSetting := strings.CutPrefix(ph[1], "user_config.")
			if isSetting {
				require.Contains(t, m.UserConfig, key, "%s=%s", name, v)
				used[key] = true
			} else {
				assert.Contains(t, []string{"__dirname", "/", "pathSeparator", "HOME", "DESKTOP", "DOCUMENTS", "DOWNLOADS"}, ph[1])
			}
		}
	}
	for _, a := range append(slices.Clone(cfg.Args), cfg.Command, win.Command) {
		assert.NotContains(t, a, "user_config", "settings go in env only: %s", a)
	}
	for key, uc := range m.UserConfig {
		assert.True(t, used[key], "setting %s is used", key)
		if !uc.Required {
			assert.NotNil(t, uc.Default, "optional setting %s has a default (else the server gets the literal placeholder)", key)
		}
		if uc.Sensitive {
			assert.Equal(t, "string", uc.Type, key)
		}
	}

	example, err := annotations.Load(aeatManifest)
	require.NoError(t, err)
	var shared []string
	for _, p := range example.CLI.Params {
		shared = append(shared, strings.ToUpper(p.Name))
	}
	facts := cliFacts(t)
	for name := range cfg.Env {
		switch {
		case strings.HasPrefix(name, "AEAT_MCP_GLOBAL_"):
			assert.Contains(t, shared, strings.TrimPrefix(name, "AEAT_MCP_GLOBAL_"), "%s: a shared param of the aeat manifest", name)
		case slices.Contains([]string{"AEAT_MCP_MANIFEST", "AEAT_MCP_CLI", "AEAT_MCP_LANG", "AEAT_MCP_BUNDLE_LANG", "AEAT_MCP_READ_ONLY"}, name):
		default:
			assert.True(t, facts[name], "%s is a variable the real aeat reads (facts.json)", name)
			assert.True(t, passes(example.CLI, name), "%s reaches the CLI (cli.env.pass)", name)
		}
	}
}

// cliFacts are the variables the real aeat reads: the pinned copy of its
// facts (testdata/aeat-cli/facts.json), there in every clone.
func cliFacts(t *testing.T) map[string]bool {
	f, err := aeatfacts.Load()
	require.NoError(t, err)
	out := map[string]bool{}
	for _, e := range f.Env {
		if e.Read() {
			out[e.Name] = true
		}
	}
	return out
}

func passes(cli annotations.CLI, name string) bool {
	for _, p := range slices.Concat(cli.Pass, cli.Require) {
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(name, prefix) || p == name {
			return true
		}
	}
	return false
}

// TestLauncher: started as Claude Desktop starts it (/bin/sh on a 0600
// script, in a folder with a space, the binary 0600 too), the launcher
// makes the binary executable and becomes it, arguments intact.
func TestLauncher(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the launcher picks the Linux amd64 binary here; on %s/%s it picks its own (run there)", runtime.GOOS, runtime.GOARCH)
	}
	dir := filepath.Join(t.TempDir(), "Claude Extensions", "local.mcpb.aeat-mcp")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "server", "linux-amd64"), 0o700))
	script, err := os.ReadFile(launcher)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "server", "launch.sh"), script, 0o600))
	bin := filepath.Join(dir, "server", "linux-amd64", "aeat-mcp")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\necho \"pid $$ args:$*\"\n"), 0o600))

	cmd := exec.Command("/bin/sh", filepath.Join(dir, "server", "launch.sh"), "--a", "b c")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "args:--a b c", strings.SplitN(strings.TrimSpace(string(out)), " ", 3)[2])
	assert.Equal(t, strconv.Itoa(cmd.Process.Pid), strings.Fields(string(out))[1], "the launcher became the binary (exec): the host talks to aeat-mcp itself")
	fi, err := os.Stat(bin)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&0o100, "the execute bit is back")
}

// bundleManifestIn reads manifest.json from a built bundle.
func bundleManifestIn(t *testing.T, bundle string) bundleManifest {
	t.Helper()
	data, err := os.ReadFile(bundle)
	require.NoError(t, err)
	if content, ok := unsigned(data); ok {
		data = content
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	var m bundleManifest
	require.NoError(t, json.Unmarshal(readZip(t, zr, "manifest.json"), &m))
	return m
}

// unsigned is a signed bundle without the block `mcpb sign` appends
// ("MCPB_SIG_V1", a little-endian uint32 length, that many bytes of
// PKCS#7, "MCPB_SIG_END"): the ZIP that was signed. ok is false when the
// bundle does not end with a whole block.
func unsigned(bundle []byte) (content []byte, ok bool) {
	const header, footer = "MCPB_SIG_V1", "MCPB_SIG_END"
	rest, found := bytes.CutSuffix(bundle, []byte(footer))
	if !found {
		return nil, false
	}
	start := bytes.LastIndex(rest, []byte(header))
	if start < 0 || len(rest) < start+len(header)+4 {
		return nil, false
	}
	n := binary.LittleEndian.Uint32(rest[start+len(header):])
	if int(n) != len(rest)-start-len(header)-4 {
		return nil, false
	}
	return bundle[:start], true
}

// TestBundleSignature: the bundle a snapshot release signed with its
// throwaway certificate (.ci/run sets AEAT_MCP_BUNDLE and
// AEAT_MCP_BUNDLE_CERT) passes mcpb/signature.mjs — the check `mcpb
// verify` cannot make (modelcontextprotocol/mcpb#276) — and that check
// fails on a changed byte of the bundle, a changed byte of the signature,
// the bundle without its signature, and another certificate.
func TestBundleSignature(t *testing.T) {
	bundle, cert := os.Getenv("AEAT_MCP_BUNDLE"), os.Getenv("AEAT_MCP_BUNDLE_CERT")
	if bundle == "" || cert == "" {
		t.Skip("AEAT_MCP_BUNDLE and AEAT_MCP_BUNDLE_CERT are set by .ci/run after a snapshot release")
	}
	verify := func(file, cert string) (string, error) {
		args := []string{"mcpb/signature.mjs", "verify", file}
		if cert != "" {
			args = append(args, cert)
		}
		out, err := exec.Command("node", args...).CombinedOutput()
		return string(out), err
	}
	out, err := verify(bundle, cert)
	require.NoError(t, err, out)
	assert.Contains(t, out, "signature: valid — signed by CN=aeat-mcp snapshot")

	data, err := os.ReadFile(bundle)
	require.NoError(t, err)
	content, ok := unsigned(data)
	require.True(t, ok)
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	_, err = exec.Command("node", "mcpb/signature.mjs", "throwaway", other).CombinedOutput()
	require.NoError(t, err)
	flip := func(at int) []byte {
		b := bytes.Clone(data)
		b[at] ^= 0x01
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		cert string
		says string
	}{
		{"a byte of the bundle changed", flip(len(content) / 2), "", "the bundle's bytes are not the ones signed"},
		{"a byte of the signature changed", flip(len(data) - len("MCPB_SIG_END") - 10), "", "the signature does not verify"},
		{"the signature removed", content, "", "it is not signed"},
		{"another certificate", data, filepath.Join(other, "cert.pem"), "not by " + filepath.Join(other, "cert.pem")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "bundle.mcpb")
			require.NoError(t, os.WriteFile(file, tc.data, 0o600))
			out, err := verify(file, tc.cert)
			assert.Error(t, err, out)
			assert.Contains(t, out, tc.says)
		})
	}
}

func readZip(t *testing.T, zr *zip.Reader, name string) []byte {
	t.Helper()
	f, err := zr.Open(name)
	require.NoError(t, err, name)
	defer f.Close()
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	return b
}

// TestBundle checks a built bundle's contents — mcpb validate checks only
// the manifest's shape (it accepted a bundle with no binary): exactly the
// files the manifest needs, each binary built for the system it is for,
// the launcher, the icon and the aeat manifest as committed, the tools
// listed; and the ZIP is followed by mcpb sign's block (TestBundleSignature
// checks the signature itself).
func TestBundle(t *testing.T) {
	bundle := os.Getenv("AEAT_MCP_BUNDLE")
	if bundle == "" {
		t.Skip("AEAT_MCP_BUNDLE is set by .ci/run after a snapshot release")
	}
	signed, err := os.ReadFile(bundle)
	require.NoError(t, err)
	content, ok := unsigned(signed)
	require.True(t, ok, "the bundle ends with mcpb sign's block (MCPB_SIG_V1 … MCPB_SIG_END): it is signed")
	zr, err := zip.NewReader(bytes.NewReader(content), int64(len(content)))
	require.NoError(t, err)
	var names []string
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, "/") {
			names = append(names, f.Name)
		}
	}
	sort.Strings(names)
	assert.Equal(t, []string{
		"LICENSE", "README.md", "icon.png", "manifest.json",
		"server/aeat.manifest.json", "server/darwin/aeat-mcp", "server/launch.sh",
		"server/linux-amd64/aeat-mcp", "server/windows-amd64/aeat-mcp.exe",
	}, names)

	m := bundleManifestIn(t, bundle)
	assert.Regexp(t, `^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`, m.Version)
	assert.Equal(t, "aeat-mcp-"+m.Version+".mcpb", filepath.Base(bundle))
	assert.Contains(t, names, m.Server.EntryPoint)
	tmpl, err := os.ReadFile(bundleTemplate)
	require.NoError(t, err)
	var want bundleManifest
	require.NoError(t, json.Unmarshal(tmpl, &want))
	assert.Equal(t, want.Server, m.Server, "the committed manifest's server")
	assert.Equal(t, want.UserConfig, m.UserConfig)

	example, err := os.ReadFile(aeatManifest)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(example, readZip(t, zr, "server/aeat.manifest.json")), "the aeat manifest, as committed")
	icon, err := os.ReadFile(bundleIcon)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(icon, readZip(t, zr, m.Icon)), "the icon, as committed")
	loaded, err := annotations.Parse(readZip(t, zr, "server/aeat.manifest.json"), "")
	require.NoError(t, err)
	var tools []string
	for _, tl := range m.Tools {
		tools = append(tools, tl.Name)
	}
	var want2 []string
	for _, tl := range loaded.Tools {
		want2 = append(want2, tl.Name)
	}
	assert.Equal(t, want2, tools, "manifest.json lists the aeat manifest's tools")
	script, err := os.ReadFile(launcher)
	require.NoError(t, err)
	assert.Equal(t, string(script), string(readZip(t, zr, "server/launch.sh")))

	// Each binary is for its system: one universal Mach-O for both Macs,
	// PE for Windows on amd64, ELF for Linux on amd64.
	fat, err := macho.NewFatFile(bytes.NewReader(readZip(t, zr, "server/darwin/aeat-mcp")))
	require.NoError(t, err, "the macOS binary is universal")
	var cpus []macho.Cpu
	for _, a := range fat.Arches {
		cpus = append(cpus, a.Cpu)
	}
	assert.ElementsMatch(t, []macho.Cpu{macho.CpuAmd64, macho.CpuArm64}, cpus)
	pf, err := pe.NewFile(bytes.NewReader(readZip(t, zr, "server/windows-amd64/aeat-mcp.exe")))
	require.NoError(t, err)
	assert.Equal(t, uint16(pe.IMAGE_FILE_MACHINE_AMD64), pf.Machine)
	ef, err := elf.NewFile(bytes.NewReader(readZip(t, zr, "server/linux-amd64/aeat-mcp")))
	require.NoError(t, err)
	assert.Equal(t, elf.EM_X86_64, ef.Machine)
}

// TestReleaseArchives checks a goreleaser dist/ (.ci/run sets
// AEAT_MCP_DIST after a snapshot release): the six platform archives, the
// universal macOS one and the MCP Bundle, each in checksums.txt with its
// hash; the
// linux/amd64 archive unpacked holds the binary, README, LICENSE and the
// examples, every file dated from the commit (reproducible), and its
// binary says the release's version and commit and serves the demo.
func TestReleaseArchives(t *testing.T) {
	dist := os.Getenv("AEAT_MCP_DIST")
	if dist == "" {
		t.Skip("AEAT_MCP_DIST is set by .ci/run after goreleaser release --snapshot")
	}
	var meta struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}
	raw, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &meta))
	require.Regexp(t, `^[0-9a-f]{40}$`, meta.Commit, "goreleaser knew the commit")

	sums := map[string]string{}
	raw, err = os.ReadFile(filepath.Join(dist, "checksums.txt"))
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Fields(line)
		require.Len(t, f, 2, line)
		sums[f[1]] = f[0]
	}
	want := []string{"aeat-mcp-" + meta.Version + ".mcpb"} // the MCP Bundle, signed, as uploaded
	for _, p := range []string{"linux_amd64.tar.gz", "linux_arm64.tar.gz", "darwin_amd64.tar.gz", "darwin_arm64.tar.gz", "darwin_universal.tar.gz", "windows_amd64.zip", "windows_arm64.zip"} {
		want = append(want, "aeat-mcp_"+meta.Version+"_"+p)
	}
	assert.ElementsMatch(t, want, slices.Collect(maps.Keys(sums)))
	for name, sum := range sums {
		data, err := os.ReadFile(filepath.Join(dist, name))
		require.NoError(t, err)
		got := sha256.Sum256(data)
		assert.Equal(t, sum, hex.EncodeToString(got[:]), name)
	}

	commitTime := gitCommitTime(t, meta.Commit)
	dir := t.TempDir()
	names := untar(t, filepath.Join(dist, "aeat-mcp_"+meta.Version+"_linux_amd64.tar.gz"), dir, commitTime)
	assert.ElementsMatch(t, []string{"aeat-mcp", "README.md", "LICENSE", "examples/aeat.manifest.json",
		"examples/aeat.full.manifest.json", "examples/aeat.overrides.json"}, names,
		"the curated manifest, the whole aeat (for --surface catalog) and the overrides it is generated with")
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the linux/amd64 binary does not run on %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	bin := filepath.Join(dir, "aeat-mcp")
	out, err := exec.Command(bin, "--version").CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "aeat-mcp version v"+meta.Version+" ("+meta.Commit[:12]+")\n", string(out),
		"the release's version, and the commit (-buildvcs on whatever GOFLAGS says)")
	out, err = exec.Command(bin, "--demo", "--log-level", "error", "call", "ledger_list", "--arg", "limit=1").CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), `"demo": true`, "the demo CLI answered through the server")
	for _, m := range []string{"aeat.manifest.json", "aeat.full.manifest.json"} {
		// validate exits 2 when a manifest does not load, 1 when it loads but
		// this machine lacks what calls need (here: the aeat CLI itself).
		out, err = exec.Command(bin, "validate", "--manifest", filepath.Join(dir, "examples", m)).CombinedOutput()
		var exit *exec.ExitError
		if err != nil {
			require.ErrorAs(t, err, &exit, string(out))
			require.Equal(t, 1, exit.ExitCode(), "the archive's %s loads in the archive's binary: %s", m, out)
		}
	}

}

// TestReleaseCask checks the Homebrew cask a snapshot release wrote
// (AEAT_MCP_DIST), and the release it goes with (the effective
// configuration goreleaser wrote beside it): the URLs are the project's
// releases, with the archives' hashes; the quarantine is cleared with
// Homebrew's declarative postflight_steps (a `run` of xattr on the staged
// binary, macOS only) and no deprecated postflight/preflight block or
// Ruby in it; and the release is not a draft, so the cask goreleaser
// pushes after publishing it never names files nobody can download.
func TestReleaseCask(t *testing.T) {
	dist := os.Getenv("AEAT_MCP_DIST")
	if dist == "" {
		t.Skip("AEAT_MCP_DIST is set by .ci/run after goreleaser release --snapshot")
	}
	raw, err := os.ReadFile(filepath.Join(dist, "homebrew", "Casks", "aeat-mcp.rb"))
	require.NoError(t, err)
	cask := string(raw)
	sums, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	require.NoError(t, err)
	version := regexp.MustCompile(`(?m)^  version "([^"]+)"$`).FindStringSubmatch(cask)
	require.NotNil(t, version, "the cask has a version")
	urls := regexp.MustCompile(`url "([^"]+)"`).FindAllStringSubmatch(cask, -1)
	require.Len(t, urls, 4, "macOS and Linux, Intel and ARM")
	for _, u := range urls {
		assert.True(t, strings.HasPrefix(u[1], releaseBase), "the cask's URLs are the project's releases, never the clone's remote: %s", u[1])
		name := strings.ReplaceAll(path.Base(u[1]), "#{version}", version[1])
		sha := regexp.MustCompile(`(?m)^([0-9a-f]{64})  ` + regexp.QuoteMeta(name) + `$`).FindStringSubmatch(string(sums))
		require.NotNil(t, sha, "%s is in checksums.txt", name)
		assert.Contains(t, cask, `sha256 "`+sha[1]+`"`, "the cask carries %s's hash", name)
	}

	steps := regexp.MustCompile(`(?s)\n  postflight_steps do\n(.*?)\n  end\n`).FindStringSubmatch(cask)
	require.NotNil(t, steps, "a postflight_steps block:\n%s", cask)
	assert.Equal(t, `    on_macos do
      run "/usr/bin/xattr", args: ["-dr", "com.apple.quarantine", "{{staged_path}}/aeat-mcp"]
    end`, steps[1], "the quarantine cleared on macOS, with Homebrew's own {{staged_path}} token")
	assert.Contains(t, cask, `binary "aeat-mcp"`, "what the step clears is the binary the cask installs")
	for _, deprecated := range []string{`(?m)^\s*(uninstall_)?(pre|post)flight do`, `system_command`} {
		assert.NotRegexp(t, deprecated, cask, "Homebrew 7 deprecates flight blocks of Ruby")
	}

	cfg, err := os.ReadFile(filepath.Join(dist, "config.yaml"))
	require.NoError(t, err)
	release := regexp.MustCompile(`(?m)^release:\n((?:  .*\n)+)`).FindStringSubmatch(string(cfg))
	require.NotNil(t, release, "the effective configuration has a release section")
	assert.NotRegexp(t, `(?m)^  draft: true`, release[1], "the release is published by the run that pushes the cask")
	assert.Contains(t, release[1], "aeat-mcp-{{ .Version }}.mcpb", "the release uploads the bundle")
}

// gitCommitTime is a commit's time, as goreleaser's {{ .CommitDate }}.
func gitCommitTime(t *testing.T, commit string) time.Time {
	t.Helper()
	out, err := exec.Command("git", "log", "-1", "--format=%ct", commit).Output()
	require.NoError(t, err)
	sec, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	require.NoError(t, err)
	return time.Unix(sec, 0)
}

// untar unpacks a .tar.gz into dir, checks every entry is dated mtime, and
// returns the files' names.
func untar(t *testing.T, archive, dir string, mtime time.Time) []string {
	t.Helper()
	f, err := os.Open(archive)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		assert.True(t, h.ModTime.Equal(mtime), "%s is dated %v, the commit %v", h.Name, h.ModTime, mtime)
		if h.Typeflag != tar.TypeReg {
			continue
		}
		names = append(names, h.Name)
		dest := filepath.Join(dir, filepath.FromSlash(h.Name))
		require.NoError(t, os.MkdirAll(filepath.Dir(dest), 0o755))
		out, err := os.OpenFile(dest, os.O_CREATE|os.O_WRONLY, os.FileMode(h.Mode)&0o777)
		require.NoError(t, err)
		_, err = io.Copy(out, tr)
		require.NoError(t, err)
		require.NoError(t, out.Close())
	}
	return names
}
