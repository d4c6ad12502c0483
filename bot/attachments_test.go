package bot

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestAttachmentsFetch: a file Discord says is too long is never
// fetched; one whose bytes run past its size is cut off and refused; a
// URL off Discord's CDN and the API base is not followed.
func TestAttachmentsFetch(t *testing.T) {
	var gets atomic.Int32
	body := strings.Repeat("x", 100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets.Add(1)
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	base, _ := url.Parse(srv.URL)
	f := NewAttachments(base)
	file := func(size int) *discordgo.MessageAttachment {
		return &discordgo.MessageAttachment{ID: "1", URL: srv.URL + "/attachments/c/1/a.png", Size: size}
	}
	data, err := f.Fetch(t.Context(), file(100), 100)
	if err != nil || string(data) != body {
		t.Fatalf("Fetch=%d bytes, %v: want the file", len(data), err)
	}
	if _, err := f.Fetch(t.Context(), file(40<<20), 100); !errors.Is(err, ErrAttachmentTooLarge) || gets.Load() != 1 {
		t.Fatalf("a file said to be 40 MB: %v after %d GETs, want refused before fetching", err, gets.Load())
	}
	if _, err := f.Fetch(t.Context(), file(50), 60); !errors.Is(err, ErrAttachmentTooLarge) {
		t.Fatalf("100 bytes said to be 50, limit 60: %v, want refused at 61", err)
	}
	if _, err := NewAttachments(nil).Fetch(t.Context(), file(100), 100); err == nil || errors.Is(err, ErrAttachmentTooLarge) || gets.Load() != 2 {
		t.Fatalf("a URL off the CDN: %v after %d GETs, want refused unfetched", err, gets.Load())
	}
}
