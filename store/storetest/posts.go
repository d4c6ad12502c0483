package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"mazebot/contest"
)

func addPosts(tb testing.TB, s Store, posts ...contest.Post) {
	tb.Helper()
	for _, p := range posts {
		ok(tb, s.AddPost(tb.Context(), p))
	}
}

func testPosts(t *testing.T, open opener) {
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		want := contest.Post{MazeID: maze(1), GuildID: "g1", ChannelID: "c1", MessageID: "m1", PostedAt: at(0)}
		addPosts(t, s, want)
		if got := read(t, s.LastPost, "c1"); got != want {
			t.Fatalf("LastPost=%+v, want %+v", got, want)
		}
	})
	// /solve's ID autocomplete lists a channel's newest posts.
	t.Run("OKRecentPosts", func(t *testing.T) {
		s := fresh(t, open)
		var want []contest.Post
		for i := range 5 {
			p := contest.Post{MazeID: maze(uint64(i + 1)), GuildID: "g1", ChannelID: "c1", MessageID: fmt.Sprintf("m%d", i), PostedAt: at(i / 2)}
			addPosts(t, s, p)
			want = append([]contest.Post{p}, want...) // newest first, ties by insertion
		}
		addPosts(t, s, contest.Post{MazeID: maze(9), ChannelID: "c2", MessageID: "other", PostedAt: at(9)})
		got, err := s.RecentPosts(t.Context(), "c1", 3)
		ok(t, err)
		if !slices.Equal(got, want[:3]) {
			t.Fatalf("RecentPosts=%+v, want %+v", got, want[:3])
		}
		if got, err := s.RecentPosts(t.Context(), "empty", 3); err != nil || len(got) != 0 {
			t.Fatalf("RecentPosts of an empty channel=%+v (%v), want none", got, err)
		}
	})
	// Times come back in UTC, truncated to the millisecond, at the same
	// instant whatever zone they went in with.
	t.Run("OKTimeZone", func(t *testing.T) {
		s := fresh(t, open)
		tokyo := time.FixedZone("JST", 9*60*60)
		addPosts(t, s, contest.Post{MazeID: maze(1), ChannelID: "c", MessageID: "m1", PostedAt: time.Date(2026, 3, 1, 21, 0, 0, 123456789, tokyo)})
		if got, want := read(t, s.LastPost, "c").PostedAt, time.Date(2026, 3, 1, 12, 0, 0, 123000000, time.UTC); got != want {
			t.Fatalf("PostedAt=%v, want %v", got, want)
		}
	})
	// A message holds one maze.
	t.Run("ErrDuplicateMessage", func(t *testing.T) {
		s := fresh(t, open)
		first := contest.Post{MazeID: maze(1), ChannelID: "c", MessageID: "m1", PostedAt: at(0)}
		addPosts(t, s, first)
		again := contest.Post{MazeID: maze(2), ChannelID: "c", MessageID: "m1", PostedAt: at(1)}
		if err := s.AddPost(t.Context(), again); err == nil {
			t.Fatal("AddPost of a message already recorded: want an error")
		}
		if got := read(t, s.LastPost, "c"); got != first {
			t.Fatalf("LastPost=%+v, want the first post of the message, %+v", got, first)
		}
	})
	// The same post again (a retry that Discord answered with the message
	// made before) is kept once.
	t.Run("OKSamePostAgain", func(t *testing.T) {
		s := fresh(t, open)
		first := contest.Post{MazeID: maze(1), GuildID: "g1", ChannelID: "c", MessageID: "m1", PostedAt: at(0)}
		addPosts(t, s, first, contest.Post{MazeID: maze(2), GuildID: "g1", ChannelID: "c", PostedAt: at(1)})
		again := first
		again.PostedAt = at(2)
		addPosts(t, s, again)
		if got := read(t, s.LastPost, "c"); got.MazeID != maze(2) {
			t.Fatalf("LastPost=%+v, want the later post: the repeat added none", got)
		}
	})
	// A reply whose message ID is unknown is recorded with "": those repeat.
	t.Run("OKUnknownMessageIDs", func(t *testing.T) {
		s := fresh(t, open)
		posts := []contest.Post{
			{MazeID: maze(1), ChannelID: "c", PostedAt: at(0)},
			{MazeID: maze(2), ChannelID: "c", PostedAt: at(1)},
		}
		addPosts(t, s, posts...)
		if got := read(t, s.LastPost, "c"); got != posts[1] {
			t.Fatalf("LastPost=%+v, want %+v", got, posts[1])
		}
	})
	testLastPost(t, open)
}

func testLastPost(t *testing.T, open opener) {
	post := func(channel, message string, postedAt time.Time) contest.Post {
		return contest.Post{MazeID: maze(uint64(message[0])), GuildID: "g1", ChannelID: channel, MessageID: message, PostedAt: postedAt}
	}
	for _, tt := range []struct {
		name  string
		posts []contest.Post // added in this order
		want  string         // MessageID of LastPost("c1")
	}{
		{"Single", []contest.Post{post("c1", "a", at(0))}, "a"},
		{"NewestByTime", []contest.Post{post("c1", "a", at(0)), post("c1", "b", at(2)), post("c1", "c", at(1))}, "b"},
		// At the same millisecond, the post added last.
		{"TieBrokenByInsertion", []contest.Post{post("c1", "a", at(5)), post("c1", "b", at(5)), post("c1", "c", at(4))}, "b"},
		// Sub-millisecond differences are not kept, so they tie.
		{"SubMillisecondTies", []contest.Post{post("c1", "a", at(5).Add(900*time.Microsecond)), post("c1", "b", at(5))}, "b"},
		{"OtherChannelsIgnored", []contest.Post{post("c1", "a", at(0)), post("c2", "b", at(9)), post("c10", "c", at(9))}, "a"},
	} {
		t.Run("OKLastPost/"+tt.name, func(t *testing.T) {
			s := fresh(t, open)
			addPosts(t, s, tt.posts...)
			got := read(t, s.LastPost, "c1")
			if got.MessageID != tt.want || got.MazeID != maze(uint64(tt.want[0])) {
				t.Fatalf("LastPost=%+v, want message %s on maze %s", got, tt.want, maze(uint64(tt.want[0])))
			}
		})
	}
	t.Run("ErrLastPostNotFound", func(t *testing.T) {
		s := fresh(t, open)
		addPosts(t, s, post("c2", "a", at(0)), post("c10", "b", at(0)))
		_, err := s.LastPost(t.Context(), "c1")
		wantNotFound(t, "LastPost of a channel without posts", err)
	})
}
