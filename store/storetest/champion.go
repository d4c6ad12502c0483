package storetest

import (
	"testing"
	"time"

	"mazebot/contest"
)

func testChampionRoles(t *testing.T, open opener) {
	nov, dec := contest.Season{Year: 2026, Month: time.November}, contest.Season{Year: 2026, Month: time.December}
	s := fresh(t, open)
	ctx := t.Context()
	_, err := s.ChampionRole(ctx, "g1")
	wantNotFound(t, "ChampionRole of a new server", err)
	wantNotFound(t, "DeleteChampionRole of a server without one", s.DeleteChampionRole(ctx, "g1"))
	wantConflict(t, "a crowning without a role", s.ClaimCrowning(ctx, "g1", nov))
	ok(t, s.SaveChampionRole(ctx, contest.ChampionRole{GuildID: "g1", RoleID: "r1", AdminID: "a1", Language: "ko"}))
	ok(t, s.SaveChampionRole(ctx, contest.ChampionRole{GuildID: "g2", RoleID: "r2", AdminID: "a2"}))
	wantRefused(t, "a role without a role", s.SaveChampionRole(ctx, contest.ChampionRole{GuildID: "g3", AdminID: "a3"}))
	wantRefused(t, "a role without an admin", s.SaveChampionRole(ctx, contest.ChampionRole{GuildID: "g3", RoleID: "r3"}))
	get := func() contest.ChampionRole {
		t.Helper()
		r, err := s.ChampionRole(ctx, "g1")
		ok(t, err)
		return r
	}
	if got, want := get(), (contest.ChampionRole{GuildID: "g1", RoleID: "r1", AdminID: "a1", Language: "ko"}); got != want {
		t.Fatalf("ChampionRole=%+v, want %+v", got, want)
	}
	// A season is crowned once; a later one again, an earlier never.
	ok(t, s.ClaimCrowning(ctx, "g1", nov))
	wantConflict(t, "a season crowned twice", s.ClaimCrowning(ctx, "g1", nov))
	wantConflict(t, "an earlier season after", s.ClaimCrowning(ctx, "g1", nov.Prev()))
	ok(t, s.SetChampion(ctx, "g1", "u1"))
	ok(t, s.ClaimCrowning(ctx, "g1", dec))
	// A refusal is told once, to the admin who set the role.
	wantConflict(t, "a notice before a refusal", s.ClaimRefusalNotice(ctx, "g1", "a1"))
	ok(t, s.RefuseChampionRole(ctx, "g1"))
	wantConflict(t, "a notice to another member", s.ClaimRefusalNotice(ctx, "g1", "a2"))
	ok(t, s.ClaimRefusalNotice(ctx, "g1", "a1"))
	wantConflict(t, "a notice told twice", s.ClaimRefusalNotice(ctx, "g1", "a1"))
	if got, want := get(), (contest.ChampionRole{GuildID: "g1", RoleID: "r1", AdminID: "a1", Language: "ko", Crowned: dec, ChampionID: "u1", Refused: true, Told: true}); got != want {
		t.Fatalf("ChampionRole=%+v, want %+v", got, want)
	}
	// A new role starts over on the refusal, keeping the crowning.
	ok(t, s.SaveChampionRole(ctx, contest.ChampionRole{GuildID: "g1", RoleID: "r9", AdminID: "a9", Language: "en"}))
	if got, want := get(), (contest.ChampionRole{GuildID: "g1", RoleID: "r9", AdminID: "a9", Language: "en", Crowned: dec, ChampionID: "u1"}); got != want {
		t.Fatalf("ChampionRole after a new setup=%+v, want %+v", got, want)
	}
	all, err := s.ChampionRoles(ctx)
	ok(t, err)
	if len(all) != 2 || all[0].GuildID != "g1" || all[1].GuildID != "g2" {
		t.Fatalf("ChampionRoles=%+v, want g1 and g2", all)
	}
	ok(t, s.DeleteChampionRole(ctx, "g1"))
	_, err = s.ChampionRole(ctx, "g1")
	wantNotFound(t, "ChampionRole cleared", err)
}
