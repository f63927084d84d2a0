package annotations

import (
	"crypto/sha256"
	"encoding/binary"
	"os"
	"time"
)

// # A manifest known by its stamp
//
// A start that finds the manifest in the cache needs its SHA-256 (the
// key) before it may trust the file: for the whole aeat, 575 KB hashed at
// every start, a tenth of what the whole CLI costs a start over the
// curated 19 (BENCHMARKS.md, ninth round). Where the system keeps a
// change time that no program can set (ctime on Linux and macOS: any
// write, truncation, chmod or utimes sets it to the system's clock), a
// file's stamp — device, inode, size, modification and change times —
// names its bytes as well as their hash does, once that change time is
// older than the clock's granularity: any later change of the bytes, even
// one that keeps the size and puts the modification time back, moves the
// change time; a file renamed over the manifest has another inode. So a
// start that hashed the manifest records the hash beside the cache file
// (its name, ".stat"), with the stamp the manifest had before and after
// it was read, and a later start whose manifest has that same stamp takes
// the recorded hash instead of hashing. The key is still the hash, the
// cache file is still checked against it exactly as before, and anything
// doubtful — no change time on this system (Windows), a stamp that moved
// while the manifest was read, a change time within [stampSettle] of the
// clock (racy: a second change within the same tick would not move it),
// a stamp file that is corrupt, foreign or for another stamp — hashes the
// manifest as before.

// stampMagic opens every stamp file; its last digit is the format's.
const stampMagic = "aeat-mcp manifest stamp 1\n"

// stampSettle is how old a manifest's change time must be, when its
// stamp is first read, for the stamp to be recorded: longer than the
// coarsest change-time tick of the file systems a stamp is taken on (a
// second on ext4 with small inodes; FAT, with 2 s and a settable change
// time, never gets this far: changeTimeKept).
const stampSettle = 2 * time.Second

// fileStamp is what the system says of a file without reading it: the
// file (device and inode), its size, and its modification and change
// times in nanoseconds.
type fileStamp struct {
	dev, ino, size uint64
	mtime, ctime   int64
}

// stampNow is the clock a stamp is judged settled by; a test moves it.
var stampNow = time.Now

// settledBy reports whether s, read at t, may be recorded: its change
// time at least stampSettle before t, so that a change of the bytes after
// t — while they were read — moves it, and the stamp read after them
// differs.
func (s fileStamp) settledBy(t time.Time) bool {
	return t.UnixNano()-s.ctime >= int64(stampSettle)
}

// openStamp is the stamp of the file at path, as the file opened says it
// (fstat): on NFS an open revalidates the attributes a stat may take from
// its cache for up to a minute, and the bytes are what an open would read.
func openStamp(path string) (fileStamp, bool) {
	f, err := os.Open(path)
	if err != nil {
		return fileStamp{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fileStamp{}, false
	}
	return stampOf(f, fi)
}

// stampFile is where the stamp of the manifest cached as file is kept.
func stampFile(file string) string { return file + ".stat" }

// encode is the stamp file's content: the magic, the manifest's SHA-256,
// the stamp, and a CRC-32 of all of it.
func (s fileStamp) encode(sum [sha256.Size]byte) []byte {
	b := append([]byte(stampMagic), sum[:]...)
	for _, v := range []uint64{s.dev, s.ino, s.size, uint64(s.mtime), uint64(s.ctime)} {
		b = binary.AppendUvarint(b, v)
	}
	return binary.LittleEndian.AppendUint32(b, checksum(b))
}

// recordedSum is the SHA-256 the stamp file at path records for a
// manifest whose stamp is s; false if the file records another stamp or
// cannot be read whole.
func recordedSum(path string, s fileStamp) (sum [sha256.Size]byte, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < len(stampMagic)+sha256.Size+4 || string(b[:len(stampMagic)]) != stampMagic {
		return sum, false
	}
	body := b[:len(b)-4]
	if checksum(body) != binary.LittleEndian.Uint32(b[len(body):]) {
		return sum, false
	}
	rest := body[len(stampMagic)+sha256.Size:]
	var got [5]uint64
	for i := range got {
		v, n := binary.Uvarint(rest)
		if n <= 0 {
			return sum, false
		}
		got[i], rest = v, rest[n:]
	}
	if len(rest) != 0 || got != [5]uint64{s.dev, s.ino, s.size, uint64(s.mtime), uint64(s.ctime)} {
		return sum, false
	}
	copy(sum[:], body[len(stampMagic):])
	return sum, true
}

// recordStamp keeps sum as the hash of a manifest whose stamp is s, in
// the stamp file at path, atomically: a start never reads half of one.
func recordStamp(dir, path string, s fileStamp, sum [sha256.Size]byte) error {
	return writeAtomic(dir, path, s.encode(sum))
}
