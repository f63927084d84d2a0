package annotations

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partsOf is what a start reads of the cache file (its key taken from the
// file itself): where its details part is, and how many tools it has.
func partsOf(t *testing.T, file string) *lateFile {
	t.Helper()
	raw := mustRead(t, file)
	_, k := binary.Uvarint(raw[len(cacheMagic):])
	d := &decoder{s: string(raw), i: len(cacheMagic) + k}
	m, err := readCache(file, d.raw())
	require.NoError(t, err)
	return m.late
}

// resumDetails makes the CRC of raw's details part, where f says it is,
// sum's of its bytes.
func resumDetails(raw []byte, f *lateFile, sum func([]byte) uint32) {
	end := f.detailsOff + int64(f.detailsN) - 4
	binary.LittleEndian.PutUint32(raw[end:], sum(raw[f.detailsOff:end]))
}

// spoilDetailInFile makes tool i's detail in the cache file fail to
// decode, its details part's CRC holding: a file made to pass it.
func spoilDetailInFile(t *testing.T, file string, i int) {
	t.Helper()
	f := partsOf(t, file)
	p, err := f.readDetails()
	require.NoError(t, err)
	raw := mustRead(t, file)
	for k := p.spans[i][0]; k < p.spans[i][1]; k++ {
		raw[f.detailsOff+int64(k)] = 0xff
	}
	resumDetails(raw, f, checksum)
	require.NoError(t, os.WriteFile(file, raw, 0o600))
}

// TestCache_HeadHoldsNoDetails: the head a start reads and checks holds
// no tool's params or CLI help — on the whole aeat they were 161 of the
// head's 280 KB (BENCHMARKS.md, eighth round) — and a start reads none of
// the details part: they are all in it, after the tools' sections.
func TestCache_HeadHoldsNoDetails(t *testing.T) {
	m, c, path := cachedFull(t)
	file := filepath.Join(c.Dir, c.fileName(absPath(path)))
	raw := mustRead(t, file)
	head := string(raw[:headEnd(raw)])
	f := partsOf(t, file)
	part := string(raw[f.detailsOff:])
	fresh := loadFresh(t, c, path)
	var helps, descriptions int
	for _, tool := range fresh.Tools {
		for _, help := range tool.CLIHelp() {
			if help == tool.Title || strings.Contains(tool.Description, help) {
				continue // the tool's own words, listed: in the head
			}
			helps++
			assert.NotContains(t, head, help, "%s's CLI help in the head", tool.Name)
			assert.Contains(t, part, help)
		}
		for _, p := range tool.Params() {
			if len(p.Description) > 40 && !strings.Contains(head, p.Description) {
				descriptions++
				assert.Contains(t, part, p.Description)
			}
		}
	}
	assert.Greater(t, helps, 250, "the whole aeat's tools have their CLI help")
	assert.Greater(t, descriptions, 50, "params' own descriptions left the head")
	assert.Less(t, len(head), 130_000, "the head without the details")
	assert.Zero(t, m.LateDecoded())
	assert.Equal(t, detailsPart{}, m.late.details, "the start read no byte of the details part")
}

// TestCache_DetailsFromManifest: the details part is not a dependency. A
// tool first used after the file was removed, replaced by another's
// (renamed over it), truncated or corrupted in place since the start has
// its detail from the manifest, read afresh — its bytes are the start's —
// and works as a no-cache load's: the same params, help and schema. A
// spoilt file is removed; another's is left alone.
func TestCache_DetailsFromManifest(t *testing.T) {
	for _, tc := range []struct {
		name    string
		spoil   func(t *testing.T, file string, f *lateFile)
		removed bool
	}{
		{"removed", func(t *testing.T, file string, _ *lateFile) { require.NoError(t, os.Remove(file)) }, true},
		{"replaced", func(t *testing.T, file string, f *lateFile) {
			// Another server's rewrite for an edit of the manifest, which
			// the user then undid: the manifest's bytes are the start's.
			data := mustRead(t, f.manifest)
			require.NoError(t, os.WriteFile(f.manifest, append(data, '\n'), 0o600))
			other, _ := newCache(t, filepath.Dir(file), "v1")
			_, err := other.Load(f.manifest)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(f.manifest, data, 0o600))
		}, false},
		{"truncated", func(t *testing.T, file string, _ *lateFile) {
			raw := mustRead(t, file)
			require.NoError(t, os.WriteFile(file, raw[:len(raw)-1], 0o600))
		}, true},
		{"corrupt", func(t *testing.T, file string, f *lateFile) {
			raw := mustRead(t, file)
			raw[f.detailsOff+int64(f.detailsN)/2] ^= 0xff
			require.NoError(t, os.WriteFile(file, raw, 0o600))
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, c, path := cachedFull(t)
			file := filepath.Join(c.Dir, c.fileName(absPath(path)))
			tc.spoil(t, file, m.late)
			fresh := loadFresh(t, c, path)
			for _, i := range []int{0, 7, len(m.Tools) - 1} {
				tool, want := m.Tools[i], fresh.Tools[i]
				require.NoError(t, tool.DetailErr(), tool.Name)
				assert.Equal(t, want.Params(), tool.Params(), tool.Name)
				assert.Equal(t, want.CLIHelp(), tool.CLIHelp(), tool.Name)
				assertAsFresh(t, want, tool)
				_, err := tool.Validate([]byte(`{"no_such_argument":1}`))
				assert.Error(t, err, "checked as ever")
			}
			if tc.removed {
				assert.NoFileExists(t, file, "spoilt: removed")
			} else {
				assert.FileExists(t, file, "another's file, left alone")
			}
		})
	}
}
