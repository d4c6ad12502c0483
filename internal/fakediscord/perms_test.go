package fakediscord_test

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

func TestChannelPermissions(t *testing.T) {
	t.Parallel()
	const (
		view    = discordgo.PermissionViewChannel
		send    = discordgo.PermissionSendMessages
		attach  = discordgo.PermissionAttachFiles
		history = discordgo.PermissionReadMessageHistory
	)
	file := func() []*discordgo.File {
		return []*discordgo.File{{Name: "a.txt", Reader: strings.NewReader("a")}}
	}
	ctx, fake, sess := setup(t)
	m, err := sess.ChannelMessageSend("760", "posted while allowed")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		perms int64
		files bool
		code  int
	}{
		{"ErrNoViewIsMissingAccess", send | attach, false, 50001},
		{"ErrNoSendIsMissingPermissions", view, false, 50013},
		{"ErrFileWithoutAttachFiles", view | send, true, 50013},
		{"OKFileWithAttachFiles", view | send | attach, true, 0},
		{"OKAdministrator", discordgo.PermissionAdministrator, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake.SetChannelPermissions("760", tt.perms)
			send := &discordgo.MessageSend{Content: "x"}
			if tt.files {
				send.Files = file()
			}
			before := fake.MessagesCreated("760")
			_, err := sess.ChannelMessageSendComplex("760", send)
			if got := restCode(err); got != tt.code {
				t.Errorf("create: code %d (%v), want %d", got, err, tt.code)
			}
			if created := fake.MessagesCreated("760") - before; (created == 1) != (tt.code == 0) {
				t.Errorf("%d messages created", created)
			}
		})
	}

	t.Run("OKNoHistoryListsNothing", func(t *testing.T) {
		fake.SetChannelPermissions("760", view|send)
		list, err := sess.ChannelMessages("760", 10, "", "", "")
		if err != nil || len(list) != 0 {
			t.Errorf("list without READ_MESSAGE_HISTORY: %v, %d messages, want none", err, len(list))
		}
		if _, err := sess.ChannelMessage("760", m.ID); restCode(err) != 50001 {
			t.Errorf("get without READ_MESSAGE_HISTORY: %v, want 50001", err)
		}
		fake.SetChannelPermissions("760", view|history)
		if list, err := sess.ChannelMessages("760", 10, "", "", ""); err != nil || len(list) == 0 {
			t.Errorf("list with READ_MESSAGE_HISTORY: %v, %d messages", err, len(list))
		}
	})

	t.Run("OKInteractionsCarryThePermissions", func(t *testing.T) {
		fake.SetChannelPermissions("760", view)
		sess.on(t, "perm", func(s *discordgo.Session, i *discordgo.Interaction) error {
			if i.AppPermissions != view {
				return fmt.Errorf("app_permissions=%d, want %d", i.AppPermissions, view)
			}
			// Replies go through the interaction webhook, not the channel.
			return reply(s, i, &discordgo.InteractionResponseData{Content: "ok"})
		})
		ix := fake.slash(t, ctx, member.SlashSpec{Name: "perm", ChannelID: "760"})
		if err := sess.result(t, ix); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("OKClearRestoresAccess", func(t *testing.T) {
		fake.SetChannelPermissions("760", 0)
		fake.ClearChannelPermissions("760")
		if _, err := sess.ChannelMessageSend("760", "x"); err != nil {
			t.Errorf("after ClearChannelPermissions: %v", err)
		}
	})

	if e := fake.RESTErrors(); len(e) == 0 || e[0].Status != 403 || !strings.Contains(e[0].Detail, strconv.FormatInt(send|attach, 10)) {
		t.Errorf("RESTErrors=%+v, want the 403s with the permissions in the detail", e)
	}
}

// TestMemberRoles: giving and taking a role answer 204, and 403 50013,
// 404 10011 or 10007 as Discord's permission hierarchy and its objects
// say.
func TestMemberRoles(t *testing.T) {
	t.Parallel()
	_, fake, sess := setup(t)
	const (
		guild  = "900"
		member = "901"
		below  = "910" // below the bot's own role
		botTop = "911"
		above  = "912"
		bots   = "913" // an integration's
	)
	fake.SetGuildLocale(guild, "en-US")
	fake.SetRoles(guild, []fakediscord.Role{
		{ID: guild, Name: "@everyone"},
		{ID: below, Name: "champion", Position: 1},
		{ID: botTop, Name: "mazebot", Position: 2, Permissions: discordgo.PermissionManageRoles},
		{ID: above, Name: "mods", Position: 3},
		{ID: bots, Name: "other bot", Position: 1, Managed: true},
	}, botTop)
	fake.AddMembers(guild, member)
	tests := []struct {
		name        string
		guild, user string
		role        string
		code        int
	}{
		{"OKBelow", guild, member, below, 0},
		{"ErrAbove", guild, member, above, 50013},
		{"ErrItsOwnTop", guild, member, botTop, 50013},
		{"ErrManaged", guild, member, bots, 50013},
		{"ErrEveryone", guild, member, guild, 50013},
		{"ErrUnknownRole", guild, member, "999", 10011},
		{"ErrUnknownMember", guild, "998", below, 10007},
		{"ErrUnknownGuild", "997", member, below, 10004},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := restCode(sess.GuildMemberRoleAdd(tt.guild, tt.user, tt.role)); got != tt.code {
				t.Fatalf("PUT: code %d, want %d", got, tt.code)
			}
			if got := restCode(sess.GuildMemberRoleRemove(tt.guild, tt.user, tt.role)); got != tt.code {
				t.Fatalf("DELETE: code %d, want %d", got, tt.code)
			}
		})
	}
	if err := sess.GuildMemberRoleAdd(guild, member, below); err != nil {
		t.Fatal(err)
	}
	if err := sess.GuildMemberRoleAdd(guild, member, below); err != nil {
		t.Fatalf("a second PUT: %v, want 204 again", err)
	}
	if got := fake.MemberRoles(guild, member); !slices.Equal(got, []string{below}) {
		t.Fatalf("member roles %v, want [%s]", got, below)
	}
	for _, r := range fake.Requests("PUT /guilds/{guild}/members/{user}/roles/{role}") {
		if r.Status/100 == 2 && r.Status != http.StatusNoContent {
			t.Fatalf("PUT answered %d, want 204", r.Status)
		}
	}
	if err := sess.GuildMemberRoleRemove(guild, member, below); err != nil {
		t.Fatal(err)
	}
	if got := fake.MemberRoles(guild, member); len(got) != 0 {
		t.Fatalf("member roles %v after DELETE, want none", got)
	}
	// Without Manage Roles, even a role below: 50013.
	fake.SetRoles(guild, []fakediscord.Role{{ID: botTop, Name: "mazebot", Position: 2}}, botTop)
	if got := restCode(sess.GuildMemberRoleAdd(guild, member, below)); got != 50013 {
		t.Fatalf("without Manage Roles: code %d, want 50013", got)
	}
	fake.SetRoles(guild, []fakediscord.Role{{ID: botTop, Name: "mazebot", Position: 2, Permissions: discordgo.PermissionAdministrator}}, botTop)
	if err := sess.GuildMemberRoleAdd(guild, member, below); err != nil {
		t.Fatalf("as an administrator: %v", err)
	}
}
