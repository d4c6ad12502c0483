package contest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// The champion role, optional: a server's admin names a role, and at a
// season's end its champion (SeasonResults.Champion) gets it and the
// previous champion loses it. It changes hands with the results card:
// once the new season's first post is made (or, when there was none on
// the 1st, at the first tick after it). The store's claim
// (ClaimCrowning) makes it once a season however many processes tick: a
// crowning is claimed just before its requests, so a process that dies
// between the two leaves the role where it was for the season rather than
// ever repeating it. A role Discord refuses (the bot lacks Manage Roles,
// or the role is above the bot's, or it is gone) is not tried again that
// season, and the admin who set it is told once, privately, the next time
// they use a command in the server.

// ErrRoleRefused: Discord refuses to give or take the role (403 Missing
// Permissions; or 404 Unknown Role: it is gone).
var ErrRoleRefused = errors.New("discord refuses the bot this role")

// ChampionRole is a server's champion role and who holds it.
type ChampionRole struct {
	GuildID, RoleID string
	// AdminID set the role and hears of a refusal, in Language (theirs
	// when they set it).
	AdminID, Language string
	// Crowned is the last season whose champion was claimed (zero for
	// none); ChampionID is the member given the role ("" for none).
	Crowned    Season
	ChampionID string
	// Refused: Discord refused the role; Told: the admin heard of it.
	Refused, Told bool
}

// ChampionStore keeps the champion roles.
type ChampionStore interface {
	// SaveChampionRole sets a server's role, admin and language; Refused
	// and Told start over, Crowned and ChampionID are kept.
	SaveChampionRole(ctx context.Context, r ChampionRole) error
	// DeleteChampionRole clears a server's role: ErrNotFound when it had
	// none.
	DeleteChampionRole(ctx context.Context, guildID string) error
	// ChampionRole returns a server's role, or ErrNotFound.
	ChampionRole(ctx context.Context, guildID string) (ChampionRole, error)
	// ChampionRoles lists every server's role.
	ChampionRoles(ctx context.Context) ([]ChampionRole, error)
	// ClaimCrowning sets a server's Crowned to s if it was before s; else
	// ErrConflict (another process claimed it, or the role is gone).
	ClaimCrowning(ctx context.Context, guildID string, s Season) error
	// SetChampion records the member holding the role.
	SetChampion(ctx context.Context, guildID, userID string) error
	// RefuseChampionRole records that Discord refused the role: Refused,
	// not Told.
	RefuseChampionRole(ctx context.Context, guildID string) error
	// ClaimRefusalNotice sets Told on a Refused role whose admin is
	// adminID and who was not told yet; else ErrConflict: of racing
	// callers one is told.
	ClaimRefusalNotice(ctx context.Context, guildID, adminID string) error
}

// RoleGranter gives and takes roles. Package commands implements it on
// Discord. Errors wrap ErrRoleRefused when Discord refuses the role, and
// ErrNotFound when the member is not in the server.
type RoleGranter interface {
	AddRole(ctx context.Context, guildID, userID, roleID string) error
	RemoveRole(ctx context.Context, guildID, userID, roleID string) error
}

// Champions hands the champion roles on.
type Champions struct {
	dailies *Dailies
	store   ChampionStore
	roles   RoleGranter
	now     func() time.Time
	log     *slog.Logger
	turns   *pacer // the claims of every Tick of this process
}

// NewChampions hands on the roles kept in s through roles, at the ends
// of the dailies' seasons, on the clock now.
func NewChampions(dailies *Dailies, s ChampionStore, roles RoleGranter, now func() time.Time, log *slog.Logger) *Champions {
	return &Champions{dailies: dailies, store: s, roles: roles, now: now, log: log, turns: newPacer(crownRate)}
}

// Set names a server's champion role, set by adminID in language. The
// season running keeps its champion: the role changes hands at its end.
func (c *Champions) Set(ctx context.Context, guildID, roleID, adminID, language string) error {
	return c.store.SaveChampionRole(ctx, ChampionRole{GuildID: guildID, RoleID: roleID, AdminID: adminID, Language: language})
}

// Clear forgets a server's champion role (the member holding it keeps
// it: the bot no longer manages it); ErrNotFound when there was none.
func (c *Champions) Clear(ctx context.Context, guildID string) error {
	return c.store.DeleteChampionRole(ctx, guildID)
}

// RefusalNotice tells whether adminID must now hear, once, that Discord
// refused the champion role they set: true once.
func (c *Champions) RefusalNotice(ctx context.Context, guildID, adminID string) (bool, error) {
	r, err := c.store.ChampionRole(ctx, guildID)
	if errors.Is(err, ErrNotFound) || (err == nil && (!r.Refused || r.Told || r.AdminID != adminID)) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch err := c.store.ClaimRefusalNotice(ctx, guildID, adminID); {
	case errors.Is(err, ErrConflict):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// Crowning many servers at once: a season ends at the same minute in
// thousands of them, and each crowning is a role given and one taken.
// A few at a time, claimed at most crownRate a second by each process
// (pace.go); the process's global limit (bot/discord) keeps them and
// the daily posts made beside them inside Discord's 50 requests a second.
const (
	crownWorkers = 4
	crownRate    = 20
)

// latestZone is where the date is latest (Kiribati's UTC+14): no
// server's date is past its date.
var latestZone = time.FixedZone("UTC+14", 14*60*60)

// Tick crowns the champion of each server whose season has ended since
// its last crowning. The crownings its time does not allow are left to
// the next Tick.
func (c *Champions) Tick(ctx context.Context) error {
	list, err := c.store.ChampionRoles(ctx)
	if err != nil {
		return err
	}
	now := c.now()
	errs := fanOut(ctx, len(list), crownWorkers, func(i int) error {
		if err := c.crownDue(ctx, list[i], now); err != nil {
			return fmt.Errorf("champion of %s: %w", list[i].GuildID, err)
		}
		return nil
	})
	return leftForNextTick(c.log, "crownings", errs)
}

// crownDue crowns a server's champion of the season that ended last, if
// it was not crowned yet and its results card is out.
func (c *Champions) crownDue(ctx context.Context, r ChampionRole, now time.Time) error {
	ended, results, claimed, err := c.claim(ctx, r, now)
	if err != nil || !claimed {
		return unclaimed(ctx, err)
	}
	return c.crown(ctx, r, ended, results)
}

// claim claims the crowning of a server's season that ended last, when
// it is due, with the season's results: claimed tells.
func (c *Champions) claim(ctx context.Context, r ChampionRole, now time.Time) (ended Season, results *SeasonResults, claimed bool, err error) {
	if !r.Crowned.before(SeasonOf(DateOf(now, latestZone)).Prev()) {
		// Crowned for the season that ended last where the date is
		// latest, so in every zone: every tick passes here for each
		// server, and its settings need not be read.
		return ended, results, false, nil
	}
	settings, err := c.dailies.Settings(ctx, r.GuildID)
	if err != nil {
		return ended, results, false, err
	}
	date, _ := settings.DayAt(now)
	ended = SeasonOf(date).Prev()
	if !r.Crowned.before(ended) {
		return ended, results, false, nil
	}
	if first := SeasonOf(date).First(); date == first && settings.Enabled {
		// With the card: on the 1st, once its post is made.
		if _, posted, err := c.dailies.Posted(ctx, r.GuildID, first); err != nil || !posted {
			return ended, results, false, err
		}
	}
	if results, err = c.dailies.SeasonResults(ctx, r.GuildID, ended); err != nil {
		return ended, results, false, err
	}
	if err := c.turns.wait(ctx); err != nil {
		return ended, results, false, errTickOver
	}
	if err := c.store.ClaimCrowning(ctx, r.GuildID, ended); errors.Is(err, ErrConflict) {
		return ended, results, false, nil
	} else if err != nil {
		return ended, results, false, err
	}
	return ended, results, true, nil
}

// crown hands a server's champion role on for the season ended, whose
// crowning this call claimed.
func (c *Champions) crown(ctx context.Context, r ChampionRole, ended Season, results *SeasonResults) error {
	// Claimed, the crowning is this call's alone: cut off by the tick's
	// end it would be lost for the season.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimedTimeout)
	defer cancel()
	winner := results.Champion()
	if winner == "" {
		return nil // a season nobody played: the champion stays
	}
	// What happened is recorded even when the role requests used up the
	// crowning's time.
	stopSettle := func() {}
	defer func() { stopSettle() }()
	settled := func() context.Context {
		var settle context.Context
		settle, stopSettle = settling(ctx)
		return settle
	}
	if err := c.roles.AddRole(ctx, r.GuildID, winner, r.RoleID); err != nil {
		return c.failed(settled(), r, "give", winner, err)
	}
	if r.ChampionID != "" && r.ChampionID != winner {
		if err := c.roles.RemoveRole(ctx, r.GuildID, r.ChampionID, r.RoleID); err != nil && !errors.Is(err, ErrNotFound) {
			// The new champion has it: record them whatever happened.
			settle := settled()
			err = c.failed(settle, r, "take", r.ChampionID, err)
			return errors.Join(err, c.store.SetChampion(settle, r.GuildID, winner))
		}
	}
	c.log.Info("season champion crowned", "guild", r.GuildID, "season", ended.String(), "champion", winner, "previous", r.ChampionID)
	return c.store.SetChampion(settled(), r.GuildID, winner)
}

// failed records what a refused role request means: the admin is told,
// and nothing is tried again this season. A member gone is no failure.
func (c *Champions) failed(ctx context.Context, r ChampionRole, what, userID string, err error) error {
	switch {
	case errors.Is(err, ErrRoleRefused):
		c.log.Warn("the champion role is refused the bot; the admin will be told", "guild", r.GuildID, "role", r.RoleID, "action", what, "user", userID, "err", err)
		return c.store.RefuseChampionRole(ctx, r.GuildID)
	case errors.Is(err, ErrNotFound):
		c.log.Info("the champion is not in the server", "guild", r.GuildID, "user", userID)
		return nil
	}
	return fmt.Errorf("%s the champion role of %s: %w", what, userID, err)
}

// before orders seasons; the zero Season is before every other.
func (s Season) before(t Season) bool {
	return s.Year < t.Year || (s.Year == t.Year && s.Month < t.Month)
}
