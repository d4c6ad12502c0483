package sqlite_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mazebot/store"
)

// at returns a UTC time n milliseconds after a fixed instant.
func at(n int) time.Time {
	return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Millisecond)
}

func TestAddPost(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		want := store.Post{MazeID: "dfs-15x15-42", GuildID: "g1", ChannelID: "c1", MessageID: "m1", AuthorID: "u1", PostedAt: at(0)}
		if err := db.AddPost(ctx, want); err != nil {
			t.Fatal(err)
		}
		if got, err := db.PostByMessage(ctx, "m1"); err != nil {
			t.Fatal(err)
		} else if got != want {
			t.Fatalf("PostByMessage=%+v, want %+v", got, want)
		}
	})

	// Times come back in UTC, truncated to the millisecond, at the same
	// instant whatever zone they went in with.
	t.Run("OK/TimeZone", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		tokyo := time.FixedZone("JST", 9*60*60)
		in := time.Date(2026, 3, 1, 21, 0, 0, 123456789, tokyo)
		if err := db.AddPost(ctx, store.Post{MazeID: "m", ChannelID: "c", MessageID: "m1", PostedAt: in}); err != nil {
			t.Fatal(err)
		}
		got, err := db.PostByMessage(ctx, "m1")
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2026, 3, 1, 12, 0, 0, 123000000, time.UTC); got.PostedAt != want {
			t.Fatalf("PostedAt=%v, want %v", got.PostedAt, want)
		}
	})

	t.Run("ErrDuplicateMessage", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		p := store.Post{MazeID: "m", ChannelID: "c", MessageID: "m1", PostedAt: at(0)}
		if err := db.AddPost(ctx, p); err != nil {
			t.Fatal(err)
		}
		if err := db.AddPost(ctx, p); err == nil {
			t.Fatal("expected error")
		}
	})

	t.Run("OKUnknownMessageIDs", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		for i := 0; i < 2; i++ {
			if err := db.AddPost(ctx, store.Post{MazeID: "m", ChannelID: "c", PostedAt: at(i)}); err != nil {
				t.Fatalf("post %d without a message ID: %v", i, err)
			}
		}
		if _, err := db.PostByMessage(ctx, ""); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("PostByMessage(\"\") err=%v, want ErrNotFound", err)
		}
	})
}

func TestLastPost(t *testing.T) {
	for _, tt := range []struct {
		name  string
		posts []store.Post // added in this order
		want  string       // MessageID of LastPost("c1")
	}{
		{
			name:  "Single",
			posts: []store.Post{{ChannelID: "c1", MessageID: "a", PostedAt: at(0)}},
			want:  "a",
		},
		{
			name: "NewestByTime",
			posts: []store.Post{
				{ChannelID: "c1", MessageID: "a", PostedAt: at(0)},
				{ChannelID: "c1", MessageID: "b", PostedAt: at(2)},
				{ChannelID: "c1", MessageID: "c", PostedAt: at(1)},
			},
			want: "b",
		},
		{
			name: "TieBrokenByInsertion",
			posts: []store.Post{
				{ChannelID: "c1", MessageID: "a", PostedAt: at(5)},
				{ChannelID: "c1", MessageID: "b", PostedAt: at(5)},
				{ChannelID: "c1", MessageID: "c", PostedAt: at(4)},
			},
			want: "b",
		},
		{
			// Sub-millisecond differences are not kept, so they tie.
			name: "SubMillisecondTies",
			posts: []store.Post{
				{ChannelID: "c1", MessageID: "a", PostedAt: at(5).Add(900 * time.Microsecond)},
				{ChannelID: "c1", MessageID: "b", PostedAt: at(5)},
			},
			want: "b",
		},
		{
			name: "OtherChannelsIgnored",
			posts: []store.Post{
				{ChannelID: "c1", MessageID: "a", PostedAt: at(0)},
				{ChannelID: "c2", MessageID: "b", PostedAt: at(9)},
				{ChannelID: "c10", MessageID: "c", PostedAt: at(9)},
			},
			want: "a",
		},
	} {
		t.Run("OK/"+tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := MustOpen(t)
			for _, p := range tt.posts {
				p.MazeID = "maze-" + p.MessageID
				if err := db.AddPost(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			got, err := db.LastPost(ctx, "c1")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := got.MessageID, tt.want; got != want {
				t.Fatalf("LastPost.MessageID=%v, want %v", got, want)
			}
			if got, want := got.MazeID, "maze-"+tt.want; got != want {
				t.Fatalf("LastPost.MazeID=%v, want %v", got, want)
			}
		})
	}

	t.Run("ErrNotFound", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		if err := db.AddPost(ctx, store.Post{MazeID: "m", ChannelID: "c2", MessageID: "a", PostedAt: at(0)}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.LastPost(ctx, "c1"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("err=%v, want %v", err, store.ErrNotFound)
		}
	})
}

func TestPostByMessage(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ctx := context.Background()
		db := MustOpen(t)
		posts := []store.Post{
			{MazeID: "m1", GuildID: "g", ChannelID: "c", MessageID: "a", AuthorID: "u1", PostedAt: at(0)},
			{MazeID: "m2", GuildID: "g", ChannelID: "c", MessageID: "b", AuthorID: "u2", PostedAt: at(1)},
		}
		for _, p := range posts {
			if err := db.AddPost(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		for _, want := range posts {
			if got, err := db.PostByMessage(ctx, want.MessageID); err != nil {
				t.Fatal(err)
			} else if got != want {
				t.Fatalf("PostByMessage(%q)=%+v, want %+v", want.MessageID, got, want)
			}
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		db := MustOpen(t)
		_, err := db.PostByMessage(context.Background(), "nope")
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("err=%v, want %v", err, store.ErrNotFound)
		}
	})
}
