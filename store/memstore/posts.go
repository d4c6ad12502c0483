package memstore

import (
	"context"
	"fmt"
	"slices"

	"mazebot/contest"
)

// AddPost records that a maze was posted. A second post of another maze
// with the same non-empty MessageID is refused; the same post again is
// recorded once.
func (s *Store) AddPost(ctx context.Context, p contest.Post) error {
	what := fmt.Sprintf("add post %s in channel %s", p.MessageID, p.ChannelID)
	if p.ChannelID == "" || p.MazeID.String() == "" {
		return fmt.Errorf("%s: %w", what, refused("a post without a channel or a maze"))
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for _, o := range s.shown {
		if p.MessageID != "" && o.MessageID == p.MessageID {
			if o.MazeID == p.MazeID && o.ChannelID == p.ChannelID {
				return nil
			}
			return fmt.Errorf("%s: %w", what, refused("message %s holds maze %s", o.MessageID, o.MazeID))
		}
	}
	p.PostedAt = instant(p.PostedAt)
	s.shown = append(s.shown, p)
	return nil
}

// LastPost returns the newest post in a channel (of posts at the same
// millisecond the one added last), or an error wrapping
// contest.ErrNotFound.
func (s *Store) LastPost(ctx context.Context, channelID string) (contest.Post, error) {
	if err := s.lock(ctx); err != nil {
		return contest.Post{}, err
	}
	defer s.mu.Unlock()
	var last *contest.Post
	for i, p := range s.shown {
		if p.ChannelID == channelID && (last == nil || !p.PostedAt.Before(last.PostedAt)) {
			last = &s.shown[i]
		}
	}
	if last == nil {
		return contest.Post{}, fmt.Errorf("last post in channel %s: %w", channelID, contest.ErrNotFound)
	}
	return *last, nil
}

// RecentPosts returns a channel's newest posts, newest first, at most
// limit of them.
func (s *Store) RecentPosts(ctx context.Context, channelID string, limit int) ([]contest.Post, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []contest.Post
	for i := len(s.shown) - 1; i >= 0; i-- { // newest added last
		if p := s.shown[i]; p.ChannelID == channelID {
			out = append(out, p)
		}
	}
	// By time, ties by insertion order (kept by the stable sort).
	slices.SortStableFunc(out, func(a, b contest.Post) int { return b.PostedAt.Compare(a.PostedAt) })
	return out[:min(limit, len(out))], nil
}
