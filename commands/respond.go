package commands

import (
	"context"
	"fmt"

	"mazebot/bot"
)

// answer sends r as the interaction's reply.
func answer(ctx context.Context, in *bot.Interaction, r bot.Reply) error {
	if err := in.Respond.Reply(ctx, r); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// update replaces the message a button is on with r.
func update(ctx context.Context, in *bot.Interaction, r bot.Reply) error {
	if err := in.Respond.Update(ctx, r); err != nil {
		return fmt.Errorf("update: %w", err)
	}
	return nil
}

// deferReply acknowledges now, before slow work.
func deferReply(ctx context.Context, in *bot.Interaction, ephemeral bool) error {
	if err := in.Respond.Defer(ctx, ephemeral); err != nil {
		return fmt.Errorf("defer: %w", err)
	}
	return nil
}
