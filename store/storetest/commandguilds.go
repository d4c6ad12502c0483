package storetest

import (
	"slices"
	"testing"
)

func testCommandGuilds(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		list := func(want ...string) {
			t.Helper()
			got, err := s.CommandGuilds(ctx)
			ok(t, err)
			if !slices.Equal(got, want) {
				t.Fatalf("CommandGuilds=%q, want %q", got, want)
			}
		}
		list()
		ok(t, s.AddCommandGuild(ctx, "g2", at(0)))
		ok(t, s.AddCommandGuild(ctx, "g1", at(1)))
		ok(t, s.AddCommandGuild(ctx, "g2", at(2))) // synced again
		list("g1", "g2")
		ok(t, s.RemoveCommandGuild(ctx, "g2"))
		ok(t, s.RemoveCommandGuild(ctx, "g3")) // never there
		list("g1")
	})
	t.Run("ErrEmptyID", func(t *testing.T) {
		s := fresh(t, open)
		wantRefused(t, "AddCommandGuild without an ID", s.AddCommandGuild(t.Context(), "", at(0)))
	})
}
