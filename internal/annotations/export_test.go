package annotations

import (
	"bytes"
	"os"
)

// SpoilDetail makes t's detail one that fails to decode from a details
// part whose checksum held, as a file made to pass it would
// (TestCache_LateSectionCorrupt makes one so), with no manifest to read
// it from instead: for a test of what a server does with such a tool. The
// file it names, removed when the detail fails, is file.
func SpoilDetail(t *Tool, file string) {
	f := &lateFile{path: file, tools: 1}
	f.detailsOnce.Do(func() { f.details = detailsPart{s: "\xff\xff\xff", spans: [][2]int{{0, 3}}} })
	t.late = &lateDetail{f: f}
}

// SpoilListing makes t's schema and listing a section of file that fails
// its checksum, as a file spoilt after the start would
// (TestCache_SectionCorrupt spoils one so): for a test of what a server
// does with such a tool. file is removed when the section is read.
func SpoilListing(t *Tool, file string) error {
	if err := os.WriteFile(file, bytes.Repeat([]byte{0xff}, 16), 0o600); err != nil {
		return err
	}
	t.listing = &lateListing{f: &lateFile{path: file, headSum: []byte{0xff, 0xff, 0xff, 0xff}, size: 16}, n: 16}
	return nil
}

// DetailsOffset and DetailsLen are where the details part of the cache
// file m was read from is (cache_details.go): the tools' sections end
// where it starts.
func DetailsOffset(m *Manifest) int64 { return m.late.detailsOff }
func DetailsLen(m *Manifest) int64    { return int64(m.late.detailsN) }
