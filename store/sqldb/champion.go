package sqldb

import (
	"context"
	"fmt"

	"mazebot/contest"
)

// championColumns are the columns of a champion_roles row, in
// championRow's order.
const championColumns = `guild_id, role_id, admin_id, language, crowned, champion_id, refused, told`

type championRow struct {
	GuildID, RoleID, AdminID, Language, Crowned, ChampionID string
	Refused, Told                                           bool
}

func (r *championRow) dest() []any {
	return []any{&r.GuildID, &r.RoleID, &r.AdminID, &r.Language, &r.Crowned, &r.ChampionID, &r.Refused, &r.Told}
}

func (r championRow) role() (contest.ChampionRole, error) {
	c := contest.ChampionRole{GuildID: r.GuildID, RoleID: r.RoleID, AdminID: r.AdminID, Language: r.Language,
		ChampionID: r.ChampionID, Refused: r.Refused, Told: r.Told}
	if r.Crowned != "" {
		var err error
		if c.Crowned, err = contest.ParseSeason(r.Crowned); err != nil {
			return c, err
		}
	}
	return c, nil
}

// SaveChampionRole sets a server's champion role; a new one starts over
// on refusals, keeping the last season crowned and its champion.
func (s *Store) SaveChampionRole(ctx context.Context, r contest.ChampionRole) error {
	return do(s, ctx, "SaveChampionRole", "save champion role of "+r.GuildID, writes, func(q q) error {
		if r.GuildID == "" || r.RoleID == "" || r.AdminID == "" {
			return fmt.Errorf("champion role %+v without a server, role or admin", r)
		}
		if err := checkLanguage(r.Language); err != nil {
			return err
		}
		_, err := q.exec(`
			INSERT INTO champion_roles (guild_id, role_id, admin_id, language) VALUES (?, ?, ?, ?)
			ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id, admin_id = excluded.admin_id,
				language = excluded.language, refused = FALSE, told = FALSE`,
			r.GuildID, r.RoleID, r.AdminID, r.Language)
		return err
	})
}

// DeleteChampionRole clears a server's champion role, or wraps
// contest.ErrNotFound.
func (s *Store) DeleteChampionRole(ctx context.Context, guildID string) error {
	return do(s, ctx, "DeleteChampionRole", "delete champion role of "+guildID, writes, func(q q) error {
		n, err := q.changed(`DELETE FROM champion_roles WHERE guild_id = ?`, guildID)
		if err == nil && n == 0 {
			err = contest.ErrNotFound
		}
		return err
	})
}

// ChampionRole returns a server's champion role, or wraps
// contest.ErrNotFound.
func (s *Store) ChampionRole(ctx context.Context, guildID string) (contest.ChampionRole, error) {
	return call(s, ctx, "ChampionRole", "champion role of "+guildID, reads, func(q q) (contest.ChampionRole, error) {
		return one(q, championRow.role, `SELECT `+championColumns+` FROM champion_roles WHERE guild_id = ?`, guildID)
	})
}

// ChampionRoles lists every server's champion role, by server.
func (s *Store) ChampionRoles(ctx context.Context) ([]contest.ChampionRole, error) {
	return call(s, ctx, "ChampionRoles", "champion roles", reads, func(q q) ([]contest.ChampionRole, error) {
		return all(q, championRow.role, `SELECT `+championColumns+` FROM champion_roles ORDER BY guild_id`)
	})
}

// ClaimCrowning claims the crowning of a server's season: once, whichever
// process asks (” and 'YYYY-MM' sort as the seasons do).
func (s *Store) ClaimCrowning(ctx context.Context, guildID string, season contest.Season) error {
	return do(s, ctx, "ClaimCrowning", fmt.Sprintf("claim crowning %s/%s", guildID, season), writes, func(q q) error {
		return q.claim(`UPDATE champion_roles SET crowned = ? WHERE guild_id = ? AND crowned < ?`,
			season.String(), guildID, season.String())
	})
}

// SetChampion records the member holding a server's champion role.
func (s *Store) SetChampion(ctx context.Context, guildID, userID string) error {
	return do(s, ctx, "SetChampion", "set champion of "+guildID, writes, func(q q) error {
		_, err := q.exec(`UPDATE champion_roles SET champion_id = ? WHERE guild_id = ?`, userID, guildID)
		return err
	})
}

// RefuseChampionRole records that Discord refused a server's champion
// role, for its admin to hear.
func (s *Store) RefuseChampionRole(ctx context.Context, guildID string) error {
	return do(s, ctx, "RefuseChampionRole", "refuse champion role of "+guildID, writes, func(q q) error {
		_, err := q.exec(`UPDATE champion_roles SET refused = TRUE, told = FALSE WHERE guild_id = ?`, guildID)
		return err
	})
}

// ClaimRefusalNotice marks a refused role's admin told, once.
func (s *Store) ClaimRefusalNotice(ctx context.Context, guildID, adminID string) error {
	return do(s, ctx, "ClaimRefusalNotice", fmt.Sprintf("refusal notice %s/%s", guildID, adminID), writes, func(q q) error {
		return q.claim(`UPDATE champion_roles SET told = TRUE WHERE guild_id = ? AND admin_id = ? AND refused = TRUE AND told = FALSE`, guildID, adminID)
	})
}

var _ contest.ChampionStore = (*Store)(nil)
