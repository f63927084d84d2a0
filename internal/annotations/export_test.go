package annotations

import (
	"bytes"
	"os"
)

// SpoilDetail makes t's detail a late section that fails to decode, as a
// file made to pass the checksum would (TestCache_LateSectionCorrupt
// makes one so): for a test of what a server does with such a tool. The
// file it names, removed when the section fails, is file.
func SpoilDetail(t *Tool, file string) {
	t.late = &lateDetail{f: &lateFile{s: "\xff\xff\xff", path: file}, start: 0, end: 3}
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
