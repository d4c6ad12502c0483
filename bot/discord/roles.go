package discord

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// roleTries bounds the tries of one role request that Discord rate
// limits: a 429 was not carried out, and giving or taking a role twice
// is harmless, so it is sent again after its Retry-After.
const roleTries = 3

// AddRole gives a member a role: PUT /guilds/{guild}/members/{user}/
// roles/{role} (Manage Roles, the role below the bot's highest), on the
// session's rate limiter like every scheduled request.
func (p *Poster) AddRole(ctx context.Context, guildID, userID, roleID string) error {
	return p.role(ctx, "give", guildID, userID, roleID, p.session.GuildMemberRoleAdd)
}

// RemoveRole takes a role from a member: DELETE on the same route.
func (p *Poster) RemoveRole(ctx context.Context, guildID, userID, roleID string) error {
	return p.role(ctx, "take", guildID, userID, roleID, p.session.GuildMemberRoleRemove)
}

// role makes one role request, waiting out a 429's Retry-After (within
// ctx) up to roleTries times.
func (p *Poster) role(ctx context.Context, what, guildID, userID, roleID string, do func(g, u, r string, opts ...discordgo.RequestOption) error) error {
	err := RetryRateLimited(ctx, roleTries, func() error { return do(guildID, userID, roleID, discordgo.WithContext(ctx)) })
	if err != nil {
		return fmt.Errorf("%s role %s of %s in server %s: %w", what, roleID, userID, guildID, err)
	}
	return nil
}
