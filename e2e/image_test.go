package e2e

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/mazecore"
)

// picturePNG is a 60×40 grey picture, dark where inside holds: what a
// member uploads for a maze in its shape.
func picturePNG(t testing.TB, inside func(x, y int) bool) []byte {
	t.Helper()
	pic := image.NewGray(image.Rect(0, 0, 60, 40))
	for y := range 40 {
		for x := range 60 {
			pic.SetGray(x, y, color.Gray{Y: 255 - 235*uint8(b2i(inside(x, y)))})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, pic); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestE2EMazeImage: /maze image: with a PNG attached makes a maze in the
// picture's dark parts, whose Solve draws it again from the picture the
// bot kept; a 40 MB file, a 20,000×20,000 PNG header and a JPEG that is
// not one are each refused privately with the reason, the first two
// before a byte of them is fetched (Discord's size and dimensions).
func TestE2EMazeImage(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	channel := fakediscord.DefaultChannelID
	upload := func(name, contentType string, data []byte) fakediscord.Attachment {
		return fake.Upload(channel, name, contentType, data)
	}
	picture := func(inside func(x, y int) bool) []byte { return picturePNG(t, inside) }

	t.Run("OK", func(t *testing.T) {
		logo := upload("logo.png", "image/png", picture(func(x, y int) bool { return (x-30)*(x-30)+(y-20)*(y-20)*4 <= 28*28 }))
		msg := final(t, fake.slash(t, "maze", opt("image", logo.ID), opt("algorithm", "wilson")))
		id := mazeIDIn(t, msg.Text())
		if msg.Ephemeral() || id.Shape.Kind != mazecore.ImageShape || len(msg.Attachments) != 1 {
			t.Fatalf("answer %q (maze %+v, %d files), want a public maze in the picture's shape", msg.Text(), id, len(msg.Attachments))
		}
		if _, err := png.Decode(bytes.NewReader(msg.Attachments[0].Data)); err != nil {
			t.Fatal(err)
		}
		ix, err := fake.ClickButton(testContext(t), member.ButtonSpec{CustomID: "solve:" + id.String(), Message: msg})
		if err != nil {
			t.Fatal(err)
		}
		if sol := final(t, ix); len(sol.Attachments) != 1 || !strings.HasPrefix(sol.Attachments[0].Filename, "SPOILER_") {
			t.Fatalf("solution %q, files %+v: want the spoilered picture, drawn from the kept image", sol.Text(), sol.Attachments)
		}
	})
	for _, tc := range []struct {
		name    string
		file    fakediscord.Attachment
		want    string
		fetched bool
	}{
		{"ErrFortyMegabytes", upload("big.png", "image/png", make([]byte, 40<<20)), "at most 1 MiB", false},
		{"ErrHugeHeader", upload("huge.png", "image/png", pngHeader(20000, 20000)), "20000×20000 pixels", false},
		{"ErrNotJPEG", upload("photo.jpg", "image/jpeg", []byte("\xff\xd8 not a JPEG, only its first two bytes")), "not a PNG or JPEG", true},
		{"ErrPieces", upload("two.png", "image/png", picture(func(x, y int) bool { return x < 20 || x > 40 })), "2 separate pieces", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := final(t, fake.slash(t, "maze", opt("image", tc.file.ID)))
			if !msg.Ephemeral() || !strings.Contains(msg.Text(), tc.want) {
				t.Fatalf("answer %q (ephemeral %v), want a private one saying %q", msg.Text(), msg.Ephemeral(), tc.want)
			}
			if n := fake.AttachmentFetches(channel, tc.file); (n > 0) != tc.fetched {
				t.Fatalf("the file was fetched %d times, want fetched %v", n, tc.fetched)
			}
		})
	}
}

// pngHeader is a PNG's signature and header claiming w × h pixels, with
// no pixels after it.
func pngHeader(w, h int) []byte {
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), uint32(w))
	ihdr = append(binary.BigEndian.AppendUint32(ihdr, uint32(h)), 8, 6, 0, 0, 0)
	out := binary.BigEndian.AppendUint32([]byte("\x89PNG\r\n\x1a\n"), uint32(len(ihdr)-4))
	return binary.BigEndian.AppendUint32(append(out, ihdr...), crc32.ChecksumIEEE(ihdr))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
