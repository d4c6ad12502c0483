package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/contest"
)

// Profile is /profile: a member's record in the server's daily and
// events, and their badges (contest.Profile).
type Profile struct {
	contests contest.Contests
}

// NewProfile shows the profiles of the contests' members.
func NewProfile(contests contest.Contests) *Profile { return &Profile{contests: contests} }

func (f *Profile) Commands() []bot.Command {
	return []bot.Command{{
		Definition: serverOnly(&discordgo.ApplicationCommand{
			Name: "profile",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "member"},
			},
		}),
		Handle: f.handle,
		Use:    []bot.Middleware{bot.GuildOnly("error.profile_dm")},
	}}
}

func (f *Profile) Components() []bot.Component { return nil }

// profileOptions are /profile's options as typed.
type profileOptions struct {
	Member string `option:"member"`
}

// handle answers /profile with the card of the member named, or of the
// one who asked.
func (f *Profile) handle(ctx context.Context, in *bot.Interaction) error {
	var o profileOptions
	bot.Options(in, &o)
	userID := o.Member
	switch {
	case userID == "":
		userID = in.UserID()
	case !customid.IsDecimal(userID): // only a forged interaction names no user
		return errInvalidButton
	}
	p, err := f.contests.Profile(ctx, in.GuildID, userID)
	if err != nil {
		return err
	}
	return answer(ctx, in, views.Profile(in.Lang(), p))
}
