package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Attachments fetches the files members attach to a command's options,
// from Discord's CDN only (or the API base's host: a REST proxy or a fake
// Discord, whose URLs the attachments then carry), with a cap on their
// length checked twice: the size Discord reports, before any byte is
// fetched, and the bytes read.
type Attachments struct {
	client *http.Client
	hosts  map[string]bool
}

// ErrAttachmentTooLarge is Fetch's refusal of a file longer than its
// limit.
var ErrAttachmentTooLarge = errors.New("attachment larger than allowed")

// attachmentTimeout bounds a fetch: a small file from a CDN.
const attachmentTimeout = 15 * time.Second

// NewAttachments fetches from Discord's CDN and from apiBase's host (nil:
// Discord itself).
func NewAttachments(apiBase *url.URL) *Attachments {
	hosts := map[string]bool{"cdn.discordapp.com": true, "media.discordapp.net": true}
	if apiBase != nil {
		hosts[apiBase.Host] = true
	}
	return &Attachments{client: &http.Client{Timeout: attachmentTimeout}, hosts: hosts}
}

// Fetch returns a's bytes, refusing with ErrAttachmentTooLarge a file
// Discord says, or its bytes show, is longer than limit.
func (f *Attachments) Fetch(ctx context.Context, a *discordgo.MessageAttachment, limit int) ([]byte, error) {
	if a == nil {
		return nil, errors.New("attachment: none")
	}
	if a.Size > limit {
		return nil, fmt.Errorf("attachment %s of %d bytes: %w (%d)", a.ID, a.Size, ErrAttachmentTooLarge, limit)
	}
	u, err := url.Parse(a.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || !f.hosts[u.Host] {
		return nil, fmt.Errorf("attachment %s: its URL is not on Discord's CDN", a.ID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("attachment %s: %w", a.ID, err)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("attachment %s: %w", a.ID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("attachment %s: %s", a.ID, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("attachment %s: %w", a.ID, err)
	}
	if len(data) > limit {
		return nil, fmt.Errorf("attachment %s: %w (%d): more bytes than its size said", a.ID, ErrAttachmentTooLarge, limit)
	}
	return data, nil
}
