package member

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
)

// Interaction is an interaction a member started, with the waits for what
// the member sees of the bot's answer.
type Interaction struct {
	*fakediscord.Interaction
	srv *fakediscord.Server
}

// await calls find until it finds what is waited for or fails; between
// calls it waits for changed (taken before each call) to close. It fails
// when ctx ends or the Server closes.
func await[T any](ctx context.Context, srv *fakediscord.Server, find func() (changed <-chan struct{}, found *T, err error)) (*T, error) {
	for {
		changed, found, err := find()
		if found != nil || err != nil {
			return found, err
		}
		select {
		case <-changed:
		case <-srv.Done():
			return nil, fakediscord.ErrClosed
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Wait returns the interaction's first callback. It fails with
// ErrNoResponse once the response deadline passes without one.
func (ix *Interaction) Wait(ctx context.Context) (*fakediscord.Response, error) {
	return await(ctx, ix.srv, func() (<-chan struct{}, *fakediscord.Response, error) {
		changed := ix.Changed()
		if resp := ix.Response(); resp != nil {
			return nil, resp, nil
		}
		if ix.Expired() {
			return nil, nil, ErrNoResponse
		}
		return changed, nil, nil
	})
}

// WaitFinal waits for the message this interaction produced — its original
// response (type 4; type 5 once edited out of the loading state) or the
// message its component was on (type 7; type 6 once edited) — to satisfy
// pred (nil: any), and returns a snapshot. After a type 6 the answer may
// instead be a followup (a slow button acknowledged before it knew it
// would post a new message): the first followup satisfying pred counts.
func (ix *Interaction) WaitFinal(ctx context.Context, pred func(*fakediscord.Message) bool) (*fakediscord.Message, error) {
	resp, err := ix.Wait(ctx)
	if err != nil {
		return nil, err
	}
	if resp.MessageID == "" {
		return nil, ErrNoMessage
	}
	deferredUpdate := resp.Type == discordgo.InteractionResponseDeferredMessageUpdate
	return await(ctx, ix.srv, func() (<-chan struct{}, *fakediscord.Message, error) {
		// Both signals are taken before looking, so no change is missed.
		changed, followed := ix.srv.MessageChanged(resp.MessageID), ix.Changed()
		wait := func() <-chan struct{} {
			if deferredUpdate {
				return either(ctx, changed, followed)
			}
			return changed
		}
		if deferredUpdate {
			for _, fu := range ix.Followups() {
				if !fu.Loading() && (pred == nil || pred(fu)) {
					return nil, fu, nil
				}
			}
		}
		m := ix.srv.Message(resp.MessageID)
		switch {
		case m == nil:
			return nil, nil, ErrNoMessage
		case m.Deleted:
			return nil, nil, ErrDeleted
		case m.Loading() || (deferredUpdate && m.Edits <= resp.EditsBefore):
			return wait(), nil, nil
		case pred != nil && !pred(m):
			return wait(), nil, nil
		}
		return nil, m, nil
	})
}

// either closes when a or b does (or ctx ends, so that it never outlives
// the wait).
func either(ctx context.Context, a, b <-chan struct{}) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		defer close(c)
		select {
		case <-a:
		case <-b:
		case <-ctx.Done():
		}
	}()
	return c
}

// WaitFollowup waits for the n-th followup (0-based) and returns it.
func (ix *Interaction) WaitFollowup(ctx context.Context, n int) (*fakediscord.Message, error) {
	return await(ctx, ix.srv, func() (<-chan struct{}, *fakediscord.Message, error) {
		changed := ix.Changed()
		if fus := ix.Followups(); n < len(fus) {
			return nil, fus[n], nil
		}
		return changed, nil, nil
	})
}

// WaitChannelMessage waits for a message in channelID for which pred holds
// (nil: any message that is not a loading deferred reply) and returns its
// snapshot. Messages already there count.
func (c *Client) WaitChannelMessage(ctx context.Context, channelID string, pred func(*fakediscord.Message) bool) (*fakediscord.Message, error) {
	return await(ctx, c.srv, func() (<-chan struct{}, *fakediscord.Message, error) {
		changed := c.srv.ChannelChanged(channelID)
		for _, m := range c.srv.ChannelMessages(channelID) {
			if (pred == nil && !m.Loading()) || (pred != nil && pred(m)) {
				return nil, m, nil
			}
		}
		return changed, nil, nil
	})
}

// WaitMessage waits until the message with id exists and pred holds for
// it (nil: it exists), and returns its snapshot.
func (c *Client) WaitMessage(ctx context.Context, id string, pred func(*fakediscord.Message) bool) (*fakediscord.Message, error) {
	return await(ctx, c.srv, func() (<-chan struct{}, *fakediscord.Message, error) {
		changed := c.srv.MessageChanged(id)
		if m := c.srv.Message(id); m != nil && (pred == nil || pred(m)) {
			return nil, m, nil
		}
		return changed, nil, nil
	})
}
