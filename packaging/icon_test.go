package packaging

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bundleIcon is the MCP Bundle's icon (manifest.json "icon"), drawn by
// drawIcon: `go test ./packaging -run TestIcon -update` writes it.
const bundleIcon = "mcpb/icon.png"

var update = flag.Bool("update", false, "rewrite mcpb/icon.png from drawIcon")

// iconSize is the side of the icon in pixels: Claude Desktop shows a
// bundle's icon small, and 512 keeps it sharp on any display.
const iconSize = 512

// drawIcon draws the icon: a blue rounded square, a white sheet (a tax
// form) with a folded corner and ruled lines, and an amber prompt ">_" on
// it (a command line). Each pixel is the average of 4×4 samples, so edges
// are smooth, and everything is computed from these numbers alone: the
// same image on every machine.
func drawIcon() *image.NRGBA {
	type shape struct {
		in  func(x, y float64) bool
		col color.NRGBA
	}
	roundRect := func(x0, y0, x1, y1, r float64) func(x, y float64) bool {
		return func(x, y float64) bool {
			if x < x0 || x > x1 || y < y0 || y > y1 {
				return false
			}
			cx, cy := math.Max(x0+r, math.Min(x, x1-r)), math.Max(y0+r, math.Min(y, y1-r))
			return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r
		}
	}
	// stroke is a segment drawn with round ends, w wide.
	stroke := func(ax, ay, bx, by, w float64) func(x, y float64) bool {
		return func(x, y float64) bool {
			dx, dy := bx-ax, by-ay
			t := math.Max(0, math.Min(1, ((x-ax)*dx+(y-ay)*dy)/(dx*dx+dy*dy)))
			px, py := ax+t*dx-x, ay+t*dy-y
			return px*px+py*py <= w*w/4
		}
	}
	// the sheet: its top right corner folded down along the diagonal.
	const sx0, sy0, sx1, sy1, fold = 128, 88, 384, 424, 72
	sheet := roundRect(sx0, sy0, sx1, sy1, 20)
	shapes := []shape{
		{roundRect(0, 0, iconSize, iconSize, 104), color.NRGBA{0x1D, 0x4E, 0x89, 0xFF}},
		// the sheet without its corner above the fold's diagonal…
		{func(x, y float64) bool { return sheet(x, y) && x-(sx1-fold) <= y-sy0 }, color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}},
		// …and the folded flap below it.
		{func(x, y float64) bool { return x >= sx1-fold && y >= sy0 && y <= sy0+fold && x-(sx1-fold) <= y-sy0 }, color.NRGBA{0xC9, 0xD6, 0xE8, 0xFF}},
		{stroke(176, 168, 280, 168, 22), color.NRGBA{0x9F, 0xB3, 0xCC, 0xFF}},
		{stroke(176, 216, 336, 216, 22), color.NRGBA{0x9F, 0xB3, 0xCC, 0xFF}},
		{stroke(176, 264, 336, 264, 22), color.NRGBA{0x9F, 0xB3, 0xCC, 0xFF}},
		{stroke(180, 318, 228, 352, 30), color.NRGBA{0xF2, 0xB1, 0x34, 0xFF}},
		{stroke(228, 352, 180, 386, 30), color.NRGBA{0xF2, 0xB1, 0x34, 0xFF}},
		{stroke(256, 386, 330, 386, 30), color.NRGBA{0xF2, 0xB1, 0x34, 0xFF}},
	}
	const n = 4 // samples per pixel side
	img := image.NewNRGBA(image.Rect(0, 0, iconSize, iconSize))
	for py := range iconSize {
		for px := range iconSize {
			var r, g, b, a float64
			for sy := range n {
				for sx := range n {
					x, y := float64(px)+(float64(sx)+0.5)/n, float64(py)+(float64(sy)+0.5)/n
					var c color.NRGBA // transparent outside the square
					for _, s := range shapes {
						if s.in(x, y) {
							c = s.col
						}
					}
					af := float64(c.A) / 255
					r, g, b, a = r+float64(c.R)*af, g+float64(c.G)*af, b+float64(c.B)*af, a+af
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{uint8(math.Round(r / a)), uint8(math.Round(g / a)), uint8(math.Round(b / a)), uint8(math.Round(a / (n * n) * 255))})
		}
	}
	return img
}

// TestIcon: the committed icon is what drawIcon draws, pixel for pixel
// (PNG's compressed bytes may differ between Go versions; the picture may
// not), a 512×512 PNG — what mcpb validate and Claude Desktop take.
func TestIcon(t *testing.T) {
	want := drawIcon()
	if *update {
		var buf bytes.Buffer
		require.NoError(t, (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, want))
		require.NoError(t, os.WriteFile(bundleIcon, buf.Bytes(), 0o644))
	}
	raw, err := os.ReadFile(bundleIcon)
	require.NoError(t, err, "go test ./packaging -run TestIcon -update writes it")
	cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
	require.NoError(t, err)
	assert.Equal(t, "png", format)
	assert.Equal(t, iconSize, cfg.Width)
	assert.Equal(t, iconSize, cfg.Height)
	got, err := png.Decode(bytes.NewReader(raw))
	require.NoError(t, err)
	mismatch := 0
	for y := range iconSize {
		for x := range iconSize {
			if color.NRGBAModel.Convert(got.At(x, y)) != want.NRGBAAt(x, y) {
				mismatch++
			}
		}
	}
	assert.Zero(t, mismatch, "pixels that differ from drawIcon: run go test ./packaging -run TestIcon -update")
}
