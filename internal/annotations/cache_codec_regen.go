//go:build regen_codec

package annotations

import "errors"

// With the tag regen_codec the package builds without its generated
// codec, which a change of the manifest types may have left unable to
// build: go generate regenerates it so (cache_codec.go). A cache is never
// read or written with these.

const typesFingerprint = "regenerating"

func encManifest(*encoder, *Manifest) error { return errRegenerating }
func decManifest(d *decoder, _ *Manifest)   { d.fail("%v", errRegenerating) }

var errRegenerating = errors.New("built to regenerate the cache codec")

func dectoolDetail(d *decoder, _ *toolDetail) { d.fail("%v", errRegenerating) }
