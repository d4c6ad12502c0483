package arena

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestBusCodec: encodeEvent writes the bytes json.Marshal writes, and
// decodeEvent reads what json.Unmarshal reads, for plain moves (written
// by hand) and everything else (by encoding/json), a move with a string
// json escapes included.
func TestBusCodec(t *testing.T) {
	move := event{Kind: evMove, Instance: "i-1179-gc-9", Origin: "0a1b2c3d4e5f6071", Nonce: "ffee0011ffee0011", At: 1_796_000_000_123, User: "1400000000000100001", Dir: "e"}
	with := func(f func(*event)) event { ev := move; f(&ev); return ev }
	for _, c := range []struct {
		name  string
		ev    event
		plain bool
	}{
		{"Move", move, true},
		{"MoveLongDir", with(func(ev *event) { ev.Dir = "north_east" }), true},
		{"Quote", with(func(ev *event) { ev.User = `a"b` }), false},
		{"Backslash", with(func(ev *event) { ev.Instance = `a\b` }), false},
		{"HTML", with(func(ev *event) { ev.Nonce = "<x>&" }), false},
		{"Unicode", with(func(ev *event) { ev.User = "é" }), false},
		{"NoInstance", with(func(ev *event) { ev.Instance = "" }), false},
		{"NoAt", with(func(ev *event) { ev.At = 0 }), false},
		{"Negative", with(func(ev *event) { ev.At = -5 }), false},
		{"Named", with(func(ev *event) { ev.Name = "ada" }), false},
		{"Game", with(func(ev *event) { ev.Game = 7 }), false},
		{"Hello", event{Kind: evHello, Instance: "i-1", Origin: "p", Nonce: "n", At: 5, User: "u", Name: "ada", Locale: "ko"}, false},
		{"State", event{Kind: evState, Instance: "i-1", Origin: "p", State: &roomState{Instance: "i-1", Phase: phaseRace}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if plainBusMove(&c.ev) != c.plain {
				t.Fatalf("plain: %v, want %v", !c.plain, c.plain)
			}
			got, err := encodeEvent(&c.ev)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(c.ev)
			if string(got) != string(want) {
				t.Fatalf("encoded\n%s\nwant\n%s", got, want)
			}
			var fast, slow event
			if err := decodeEvent(got, &fast); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &slow); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(fast, c.ev) {
				t.Fatalf("decoded %+v, json reads %+v, sent %+v", fast, slow, c.ev)
			}
		})
	}
	// A message json reads otherwise than the plain form (a field more,
	// another order, spaces, a leading zero) is not read as a plain move.
	plain, _ := encodeEvent(&move)
	for _, msg := range []string{
		string(plain[:len(plain)-2]) + `","name":"x"}`,
		`{"i":"i-1","k":"move","o":"p","n":"n","at":5,"u":"u","d":"e"}`,
		`{"k":"move","i":"i-1","o":"p","n":"n","at":05,"u":"u","d":"e"}`,
		`{"k":"move", "i":"i-1","o":"p","n":"n","at":5,"u":"u","d":"e"}`,
		string(plain) + " ",
		string(plain[:len(plain)-1]),
	} {
		var ev event
		if decodePlainMove(msg, &ev) {
			t.Errorf("read %s as a plain move: %+v", msg, ev)
		}
	}
}

// BenchmarkBusDecode: a plain move read by hand and by encoding/json.
func BenchmarkBusDecode(b *testing.B) {
	msg, _ := encodeEvent(&event{Kind: evMove, Instance: "i-1179-gc-9", Origin: "0a1b2c3d4e5f6071", Nonce: "ffee0011ffee0011", At: 1_796_000_000_123, User: "1400000000000100001", Dir: "e"})
	b.Run("codec", func(b *testing.B) {
		for b.Loop() {
			var ev event
			_ = decodeEvent(msg, &ev)
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			var ev event
			_ = json.Unmarshal(msg, &ev)
		}
	})
}
