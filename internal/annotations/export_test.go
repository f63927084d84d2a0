package annotations

// SpoilDetail makes t's detail a late section that fails to decode, as a
// file made to pass the checksum would (TestCache_LateSectionCorrupt
// makes one so): for a test of what a server does with such a tool. The
// file it names, removed when the section fails, is file.
func SpoilDetail(t *Tool, file string) {
	t.late = &lateDetail{f: &lateFile{s: "\xff\xff\xff", path: file}, start: 0, end: 3}
}
