package fakediscord

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Roles, as Discord documents them (resources/guild "Add Guild Member
// Role" and "Remove Guild Member Role", topics/permissions "Permission
// Hierarchy", topics/opcodes-and-status-codes): PUT and DELETE
// /guilds/{guild}/members/{user}/roles/{role} answer 204 No Content, the
// same for a member who already has (or never had) the role. The bot needs
// MANAGE_ROLES in the server, from the @everyone role (whose id is the
// server's) or one of its own (ADMINISTRATOR grants it), and the role must
// be below its highest role; else 403 code 50013 "Missing Permissions", as
// for a managed role (a bot's or the boosters'), which nobody gives. A role
// the server does not have is 404 code 10011 "Unknown Role", a member it
// does not have 404 code 10007 "Unknown Member".
//
// A server has roles and members only as a test gives them (SetRoles,
// AddMembers); Reset forgets them.

var (
	errUnknownRole   = &apiError{Status: http.StatusNotFound, Code: 10011, Message: "Unknown Role"}
	errUnknownMember = &apiError{Status: http.StatusNotFound, Code: 10007, Message: "Unknown Member"}
)

// Role is a server's role.
type Role struct {
	ID, Name string
	// Position orders the roles: a member may manage only those below
	// their highest. @everyone is at 0.
	Position    int
	Permissions int64
	// Managed: an integration's role (a bot's own, the boosters'),
	// which nobody can give or take.
	Managed bool
}

// guildRoles is what the fake knows of a server's roles and members.
type guildRoles struct {
	roles   map[string]Role
	bot     []string            // the bot's roles (@everyone aside)
	members map[string][]string // member → their roles
}

// rolesOf returns guildID's roles, made on first use; d.mu is held.
func (d *directory) rolesOf(guildID string) *guildRoles {
	if d.roles == nil {
		d.roles = map[string]*guildRoles{}
	}
	g := d.roles[guildID]
	if g == nil {
		g = &guildRoles{roles: map[string]Role{}, members: map[string][]string{}}
		d.roles[guildID] = g
	}
	return g
}

// SetRoles gives guildID these roles (more of them, or new versions of
// those it has), and the bot the ones named in botRoles.
func (s *Server) SetRoles(guildID string, roles []Role, botRoles ...string) {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	g := d.rolesOf(guildID)
	for _, r := range roles {
		g.roles[r.ID] = r
	}
	g.bot = slices.Clone(botRoles)
}

// AddMembers makes users members of guildID, with no role.
func (s *Server) AddMembers(guildID string, users ...string) {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	g := d.rolesOf(guildID)
	for _, u := range users {
		if _, ok := g.members[u]; !ok {
			g.members[u] = []string{}
		}
	}
}

// SetMemberRoles gives a member of guildID exactly roles, as a moderator
// would.
func (s *Server) SetMemberRoles(guildID, userID string, roles ...string) {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rolesOf(guildID).members[userID] = slices.Clone(roles)
}

// MemberRoles lists the roles a member of guildID has (nil for one who
// is not a member).
func (s *Server) MemberRoles(guildID, userID string) []string {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.rolesOf(guildID).members[userID])
}

// botRolePermissions is what the bot's roles in guildID grant (0 when
// the test gave it none).
func (d *directory) botRolePermissions(guildID string) int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	g, ok := d.roles[guildID]
	if !ok {
		return 0
	}
	perms := g.roles[guildID].Permissions
	for _, b := range g.bot {
		perms |= g.roles[b].Permissions
	}
	return perms
}

// roleObject is a role as Discord sends it (resources/permissions, the
// role object), in an interaction's data.resolved.roles.
func roleObject(r Role) map[string]any {
	return map[string]any{
		"id": r.ID, "name": r.Name, "color": 0, "colors": map[string]any{"primary_color": 0, "secondary_color": nil, "tertiary_color": nil},
		"hoist": false, "icon": nil, "unicode_emoji": nil, "position": r.Position,
		"permissions": strconv.FormatInt(r.Permissions, 10), "managed": r.Managed, "mentionable": false, "flags": 0,
	}
}

// resolvedRole is guildID's role id as an interaction resolves it.
func (d *directory) resolvedRole(guildID, id string) (map[string]any, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.rolesOf(guildID).roles[id]
	if !ok {
		return nil, false
	}
	return roleObject(r), true
}

// memberRole answers PUT (give) and DELETE (take) of a member's role.
func (d *directory) memberRole(give bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		guild, user, id := r.PathValue("guild"), r.PathValue("user"), r.PathValue("role")
		if e := d.changeRole(guild, user, id, give); e != nil {
			d.s.fail(w, r, e, nil)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// changeRole gives or takes role id of user in guild, or says why
// Discord would not.
func (d *directory) changeRole(guild, user, id string, give bool) *apiError {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.roles[guild]; !ok && guild != DefaultGuildID && d.locales[guild] == "" {
		return errUnknownGuild
	}
	g := d.rolesOf(guild)
	role, ok := g.roles[id]
	if !ok {
		return errUnknownRole
	}
	has, ok := g.members[user]
	if !ok {
		return errUnknownMember
	}
	perms, top := g.roles[guild].Permissions, 0
	for _, b := range g.bot {
		if br, ok := g.roles[b]; ok {
			perms |= br.Permissions
			top = max(top, br.Position)
		}
	}
	switch {
	case perms&(discordgo.PermissionManageRoles|discordgo.PermissionAdministrator) == 0:
		return withDetail(errMissingPerms, "the bot lacks MANAGE_ROLES in guild "+guild)
	case role.Position >= top || role.Managed || id == guild:
		return withDetail(errMissingPerms, "role "+id+" is not below the bot's highest role, or is managed")
	}
	i := slices.Index(has, id)
	switch {
	case give && i < 0:
		g.members[user] = append(has, id)
	case !give && i >= 0:
		g.members[user] = slices.Delete(has, i, i+1)
	}
	return nil
}
