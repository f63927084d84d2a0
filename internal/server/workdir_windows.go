package server

import "os"

// readDirAttrs reads what scratchOurs decides on, without following a
// link (a junction or symbolic link is not a directory of ours). Windows
// has no owner uid or mode bits to read here.
func readDirAttrs(path string) (dirAttrs, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return dirAttrs{}, err
	}
	return dirAttrs{dir: fi.IsDir() && fi.Mode()&os.ModeSymlink == 0, uid: -1}, nil
}
