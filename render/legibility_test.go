package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	hexenc "encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"mazebot/mazecore"
)

// Thresholds of legibility (issue 19): WCAG's 3:1 for graphics, and
// CIEDE2000 20 (other colours, not shades of one) under each simulated
// colour vision.
const (
	minContrast = 3
	minDeltaE   = 20
)

type namedColour struct {
	name string
	c    color.RGBA
}

// TestPaletteContrast holds every palette's path against its floor and,
// as its outline where coloured tiles touch them, its walls, and the
// walls against the floor, to 3:1; go test -v prints the figures.
func TestPaletteContrast(t *testing.T) {
	for _, p := range palettes {
		c := p.colours
		for _, pair := range []struct {
			what string
			a, b color.RGBA
		}{
			{"walls/floor", c[kWall], c[kFloor]},
			{"path/floor", c[kPath], c[kFloor]},
			{"path/walls", c[kPath], c[kWall]},
		} {
			got := contrast(pair.a, pair.b)
			t.Logf("%-5s %-11s %5.2f:1", p, pair.what, got)
			if got < minContrast {
				t.Errorf("%s: %s contrast %.2f:1, want ≥ %d:1", p, pair.what, got, minContrast)
			}
		}
	}
}

// TestColourVision holds the colours that must be told apart (the
// solution, the trail, the player and the GIF's head and stack) apart
// from each other and from what they lie on, in normal vision and under
// simulated protanopia, deuteranopia and tritanopia: the worst CIEDE2000
// difference at least minDeltaE. The start and goal are told apart by
// their markers' shapes; their colours' figures are logged.
func TestColourVision(t *testing.T) {
	check := func(t *testing.T, group string, apart []namedColour, ground []namedColour) {
		t.Helper()
		for i, a := range apart {
			for _, b := range append(apart[i+1:], ground...) {
				d, who := worstDeltaE(a.c, b.c)
				t.Logf("%-5s %-7s/%-7s worst ΔE2000 %5.1f (%s)", group, a.name, b.name, d, who)
				if d < minDeltaE {
					t.Errorf("%s: %s and %s ΔE %.1f under %s, want ≥ %d", group, a.name, b.name, d, who, minDeltaE)
				}
			}
		}
	}
	for _, p := range palettes {
		c := p.colours
		ground := []namedColour{{"floor", c[kFloor]}}
		apart := []namedColour{{"path", c[kPath]}, {"trail", c[kTrail]}, {"player", c[kPlayer]}}
		if p.name != Print.name {
			// Print's player is a black disc with a white ring: black
			// as its walls, told by its shape.
			ground = append(ground, namedColour{"walls", c[kWall]})
		}
		if p.name == Dark.name {
			apart = append(apart, namedColour{"head", rgbaOf(gifPalette[gHead])})
		}
		check(t, p.name, apart, ground)
		d, who := worstDeltaE(p.markers[0], p.markers[1])
		t.Logf("%-5s start/goal markers worst ΔE2000 %.1f (%s): shapes tell them apart", p, d, who)
	}
	g := func(s uint8) color.RGBA { return rgbaOf(gifPalette[s]) }
	check(t, "gif",
		[]namedColour{{"head", g(gHead)}, {"stack", g(gDug)}, {"path", g(gPath)}},
		[]namedColour{{"floor", g(gFloor)}, {"walls", g(gWall)}, {"unvisited", g(gUnvisited)}})
}

func rgbaOf(c color.Color) color.RGBA { return color.RGBAModel.Convert(c).(color.RGBA) }

// previewWidth is how wide Discord shows a picture in a chat on a
// desktop; a phone shows it smaller still.
const previewWidth = 400

// minMarkerPixels is how many pixels of a picture shown previewWidth wide
// each marker must cover in its own colour: about a 7×7 square.
const minMarkerPixels = 50

// TestMarkersInPreview scales pictures of every palette and style at 41,
// 201 and 1001 tiles down to previewWidth pixels wide, as a chat preview
// does (area averaging), and counts the preview pixels that still show a
// marker's colour: at least minMarkerPixels each, and the start's and the
// goal's shapes different.
func TestMarkersInPreview(t *testing.T) {
	sizes := []int{41, 201, 1001}
	for _, p := range palettes {
		for _, style := range []Style{StyleBlock, StyleLine} {
			for _, size := range sizes {
				if raceDetector && size == 1001 && (p.name != Dark.name || style != StyleBlock) {
					continue // one of the big ones is enough under the race detector
				}
				t.Run(fmt.Sprintf("%s/%s/%d", p, style, size), func(t *testing.T) {
					m := mustGenerate(t, mazecore.Backtracking, size, 1)
					opts := PNGOptions{Overlay: Overlay{Path: mazecore.Solve(m)}, Palette: p, Style: style}
					img, _ := decodePNG(t, m, opts)
					g, d := opts.geometry(m)
					var masks [2][]bool
					for i, mk := range markersOf(m, g, d) {
						mask, n := previewMarker(img, mk, p.markers[i])
						t.Logf("marker %d: %d×%d px in a %d px wide picture, %d pixels of %d wide", i, mk.d, mk.d, img.Bounds().Dx(), n, previewWidth)
						if n < minMarkerPixels {
							t.Fatalf("marker %d covers %d pixels at %d px wide, want ≥ %d", i, n, previewWidth, minMarkerPixels)
						}
						masks[i] = mask
					}
					same, both := 0, 0
					for i := range masks[0] {
						if masks[0][i] && masks[1][i] {
							same++
						}
						if masks[0][i] || masks[1][i] {
							both++
						}
					}
					if overlap := float64(same) / float64(both); overlap > 0.6 {
						t.Fatalf("the markers' previews overlap %.0f %% when laid on each other: one shape", 100*overlap)
					}
				})
			}
		}
	}
}

// previewMarker scales the box of mk in img by previewWidth over img's
// width, each preview pixel the average of the pixels it covers, and
// returns which preview pixels of the box are within ΔE 10 of colour
// (laid out in a square of the box's preview size, for comparing shapes)
// and how many.
func previewMarker(img image.Image, mk marker, colour color.RGBA) ([]bool, int) {
	f := float64(img.Bounds().Dx()) / previewWidth // source pixels a preview pixel
	u0, v0 := int(float64(mk.x)/f), int(float64(mk.y)/f)
	n := int(float64(mk.d)/f) + 2
	want := lab(colour)
	mask := make([]bool, n*n)
	count := 0
	for j := range n {
		for i := range n {
			c := averageArea(img, float64(u0+i)*f, float64(v0+j)*f, f)
			if deltaE(lab(c), want) < 10 {
				mask[j*n+i] = true
				count++
			}
		}
	}
	return mask, count
}

// averageArea is the mean colour of img over the square [x, x+f)×[y, y+f),
// partly covered pixels weighted by their share.
func averageArea(img image.Image, x, y, f float64) color.RGBA {
	var sum [3]float64
	total := 0.0
	for py := int(y); float64(py) < y+f; py++ {
		wy := min(float64(py+1), y+f) - max(float64(py), y)
		for px := int(x); float64(px) < x+f; px++ {
			wx := min(float64(px+1), x+f) - max(float64(px), x)
			c := rgbaOf(img.At(px, py))
			w := wx * wy
			sum[0] += w * linear(c.R)
			sum[1] += w * linear(c.G)
			sum[2] += w * linear(c.B)
			total += w
		}
	}
	return color.RGBA{encode(sum[0] / total), encode(sum[1] / total), encode(sum[2] / total), 0xff}
}

// TestPictureGoldens locks the picture of every palette and style at 41,
// 201 and 1001 tiles with the solution, pixel for pixel: at 41 and 201 as
// PNGs in testdata/picture-* (go test ./render -update rewrites them: look
// at them before you commit), at 1001 as the SHA-256 of the decoded
// pixels, since those PNGs would be 200 KB each.
func TestPictureGoldens(t *testing.T) {
	t.Parallel()
	for _, p := range palettes {
		for _, style := range []Style{StyleBlock, StyleLine} {
			for _, size := range []int{41, 201, 1001} {
				name := fmt.Sprintf("picture-%s-%s-%d.png", p, style, size)
				t.Run(name, func(t *testing.T) {
					m := mustGenerate(t, mazecore.Backtracking, size, 1)
					var buf bytes.Buffer
					if err := PNG(&buf, m, PNGOptions{Overlay: Overlay{Path: mazecore.Solve(m)}, Palette: p, Style: style}); err != nil {
						t.Fatal(err)
					}
					if size == 1001 {
						goldenPixelHash(t, strings.TrimSuffix(name, ".png")+".sha256", buf.Bytes())
						return
					}
					goldenPicture(t, name, buf.Bytes())
				})
			}
		}
	}
}

// goldenPixelHash compares the SHA-256 of the pixels of the PNG got (each
// pixel's 16-bit RGBA, row by row, after its size) with testdata/name.
func goldenPixelHash(t *testing.T, name string, got []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	bounds := img.Bounds()
	fmt.Fprintf(h, "%dx%d\n", bounds.Dx(), bounds.Dy())
	row := make([]byte, 0, 8*bounds.Dx())
	at := rgba64At(img)
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		row = row[:0]
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			c := at(x, y)
			row = binary.BigEndian.AppendUint16(row, c.R)
			row = binary.BigEndian.AppendUint16(row, c.G)
			row = binary.BigEndian.AppendUint16(row, c.B)
			row = binary.BigEndian.AppendUint16(row, c.A)
		}
		h.Write(row)
	}
	golden(t, name, []byte(hexenc.EncodeToString(h.Sum(nil))+"\n"))
}

// goldenPicture compares the pixels of the PNG got with testdata/name, or
// rewrites the file under -update, encoded at image/png's best
// compression to keep the repository small: pixels are what count.
func goldenPicture(t *testing.T, name string, got []byte) {
	t.Helper()
	if *update {
		img, err := png.Decode(bytes.NewReader(got))
		if err != nil {
			t.Fatal(err)
		}
		var small bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&small, img); err != nil {
			t.Fatal(err)
		}
		golden(t, name, small.Bytes())
		return
	}
	want, err := readTestdata(name)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	a, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if diff := pixelDiff(a, b); diff != "" {
		t.Fatalf("%s: %s", name, diff)
	}
}
