package commands

import (
	"context"
	"errors"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/contest"
	"mazebot/lang"
)

// The champion role on Discord: /daily setup champion-role:@role names it
// (champion-role-off:true forgets it), the champion ticker hands it on at
// each season's end through Roles, and the admin who set it hears once,
// privately, when Discord refused it.

// Roles gives and takes members' roles on Discord (bot.Poster).
type Roles interface {
	AddRole(ctx context.Context, guildID, userID, roleID string) error
	RemoveRole(ctx context.Context, guildID, userID, roleID string) error
}

// discordRoles is contest's RoleGranter on Discord: it tells contest what
// Discord's answers mean.
type discordRoles struct{ roles Roles }

var _ contest.RoleGranter = discordRoles{}

func (d discordRoles) AddRole(ctx context.Context, guildID, userID, roleID string) error {
	return roleError(d.roles.AddRole(ctx, guildID, userID, roleID))
}

func (d discordRoles) RemoveRole(ctx context.Context, guildID, userID, roleID string) error {
	return roleError(d.roles.RemoveRole(ctx, guildID, userID, roleID))
}

// roleError tells contest what Discord said of a role request: refused
// (403 Missing Permissions or Access: no Manage Roles, a role above the
// bot's, a managed one; 404 Unknown Role or Guild: it is gone), or a
// member not in the server (404 Unknown Member).
func roleError(err error) error {
	var re *discordgo.RESTError
	if err == nil || !errors.As(err, &re) || re.Message == nil {
		return err
	}
	switch re.Message.Code {
	case discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeMissingAccess,
		discordgo.ErrCodeUnknownRole, discordgo.ErrCodeUnknownGuild:
		return errors.Join(contest.ErrRoleRefused, err)
	case discordgo.ErrCodeUnknownMember:
		return errors.Join(contest.ErrNotFound, err)
	}
	return err
}

// championRole reads /daily setup's champion-role options: the role to
// set ("" for none), or off to forget it. @everyone and a managed role
// (a bot's, the boosters') are refused: Discord lets nobody give them.
func championRole(in *bot.Interaction, o setupOptions) (roleID string, off bool, err error) {
	off = o.ChampionRoleOff != nil && *o.ChampionRoleOff
	if o.ChampionRole == "" {
		return "", off, nil
	}
	if off {
		return "", false, bot.Refuse("error.champion_role_both")
	}
	if o.ChampionRole == in.GuildID {
		return "", false, bot.Refuse("error.champion_role_everyone")
	}
	if res := in.ApplicationCommandData().Resolved; res != nil {
		if r := res.Roles[o.ChampionRole]; r != nil && r.Managed {
			return "", false, bot.Refuse("error.champion_role_managed", lang.Args{"Role": roleMention(r.ID)})
		}
	}
	return o.ChampionRole, false, nil
}

// setChampionRole applies what championRole read and says what it did
// ("" when the options left the role alone).
func (f *Daily) setChampionRole(ctx context.Context, in *bot.Interaction, roleID string, off bool) (string, error) {
	l := in.Lang()
	switch {
	case off:
		if err := f.champions.Clear(ctx, in.GuildID); errors.Is(err, contest.ErrNotFound) {
			return l.T("champion.off_none"), nil
		} else if err != nil {
			return "", err
		}
		return l.T("champion.off_done"), nil
	case roleID == "":
		return "", nil
	}
	if err := f.champions.Set(ctx, in.GuildID, roleID, in.UserID(), l.Code()); err != nil {
		return "", err
	}
	text := l.T("champion.set", lang.Args{"Role": roleMention(roleID)})
	if in.AppPermissions&(discordgo.PermissionManageRoles|discordgo.PermissionAdministrator) == 0 {
		text += "\n" + l.T("champion.no_manage_roles")
	}
	return text, nil
}

func roleMention(id string) string { return "<@&" + id + ">" }

// ChampionRoleNotice tells the admin who set a server's champion role,
// once and privately, after their first command or button that went well
// there since Discord refused the role, as ClosedDMNotice does.
func ChampionRoleNotice(champions *contest.Champions, store contest.ChampionStore, log *slog.Logger) bot.Middleware {
	return noticeAfter(log, "champion role notice", func(ctx context.Context, in *bot.Interaction) (string, error) {
		tell, err := champions.RefusalNotice(ctx, in.GuildID, in.UserID())
		if !tell || err != nil {
			return "", err
		}
		r, err := store.ChampionRole(ctx, in.GuildID)
		if err != nil {
			return "", err
		}
		return in.Lang().T("champion.refused", lang.Args{"Role": roleMention(r.RoleID)}), nil
	})
}
