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

// await calls check until it reports done or an error; between calls it
// waits for changed (taken before each check) to close. It fails when ctx
// ends or the Server closes.
func await(ctx context.Context, srv *fakediscord.Server, check func() (changed <-chan struct{}, done bool, err error)) error {
	for {
		changed, done, err := check()
		if done || err != nil {
			return err
		}
		select {
		case <-changed:
		case <-srv.Done():
			return fakediscord.ErrClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Wait returns the interaction's first callback. It fails with
// ErrNoResponse once the response deadline passes without one.
func (ix *Interaction) Wait(ctx context.Context) (*fakediscord.Response, error) {
	var out *fakediscord.Response
	err := await(ctx, ix.srv, func() (<-chan struct{}, bool, error) {
		changed := ix.Changed()
		if out = ix.Response(); out != nil {
			return nil, true, nil
		}
		if ix.Expired() {
			return nil, false, ErrNoResponse
		}
		return changed, false, nil
	})
	return out, err
}

// WaitFinal waits for the message this interaction produced — its original
// response (type 4; type 5 once edited out of the loading state) or the
// message its component was on (type 7; type 6 once edited) — to satisfy
// pred (nil: any), and returns a snapshot.
func (ix *Interaction) WaitFinal(ctx context.Context, pred func(*fakediscord.Message) bool) (*fakediscord.Message, error) {
	resp, err := ix.Wait(ctx)
	if err != nil {
		return nil, err
	}
	if resp.MessageID == "" {
		return nil, ErrNoMessage
	}
	var out *fakediscord.Message
	err = await(ctx, ix.srv, func() (<-chan struct{}, bool, error) {
		changed := ix.srv.MessageChanged(resp.MessageID)
		m := ix.srv.Message(resp.MessageID)
		switch {
		case m == nil:
			return nil, false, ErrNoMessage
		case m.Deleted:
			return nil, false, ErrDeleted
		case m.Loading() || (resp.Type == discordgo.InteractionResponseDeferredMessageUpdate && m.Edits <= resp.EditsBefore):
			return changed, false, nil
		case pred != nil && !pred(m):
			return changed, false, nil
		}
		out = m
		return nil, true, nil
	})
	return out, err
}

// WaitFollowup waits for the n-th followup (0-based) and returns it.
func (ix *Interaction) WaitFollowup(ctx context.Context, n int) (*fakediscord.Message, error) {
	var out *fakediscord.Message
	err := await(ctx, ix.srv, func() (<-chan struct{}, bool, error) {
		changed := ix.Changed()
		if fus := ix.Followups(); n < len(fus) {
			out = fus[n]
			return nil, true, nil
		}
		return changed, false, nil
	})
	return out, err
}

// WaitChannelMessage waits for a message in channelID for which pred holds
// (nil: any message that is not a loading deferred reply) and returns its
// snapshot. Messages already there count.
func (c *Client) WaitChannelMessage(ctx context.Context, channelID string, pred func(*fakediscord.Message) bool) (*fakediscord.Message, error) {
	var out *fakediscord.Message
	err := await(ctx, c.srv, func() (<-chan struct{}, bool, error) {
		changed := c.srv.ChannelChanged(channelID)
		for _, m := range c.srv.ChannelMessages(channelID) {
			if (pred == nil && !m.Loading()) || (pred != nil && pred(m)) {
				out = m
				return nil, true, nil
			}
		}
		return changed, false, nil
	})
	return out, err
}

// WaitMessage waits until the message with id exists and pred holds for
// it (nil: it exists), and returns its snapshot.
func (c *Client) WaitMessage(ctx context.Context, id string, pred func(*fakediscord.Message) bool) (*fakediscord.Message, error) {
	var out *fakediscord.Message
	err := await(ctx, c.srv, func() (<-chan struct{}, bool, error) {
		changed := c.srv.MessageChanged(id)
		if m := c.srv.Message(id); m != nil && (pred == nil || pred(m)) {
			out = m
			return nil, true, nil
		}
		return changed, false, nil
	})
	return out, err
}
