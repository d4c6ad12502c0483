package arena

import (
	"encoding/json"
	"strconv"
)

// A move is nearly every message on the bus, and every process decodes
// every process's moves: encoding/json's Unmarshal of them was 15% of a
// process's server CPU under BenchmarkArenaPostgres's three processes.
// A plain move (what room.move sends) is written and read here in the
// very bytes json.Marshal writes for it; anything else, or a move with a
// string json would escape, goes through encoding/json.

// The fields of a plain move, in the order json.Marshal writes event's.
const (
	moveHead = `{"k":"move","i":"`
	moveO    = `","o":"`
	moveN    = `","n":"`
	moveAt   = `","at":`
	moveU    = `,"u":"`
	moveD    = `","d":"`
	moveTail = `"}`
)

// plainText: s is written by json.Marshal as it is, between quotes, and
// is not empty (an empty field is omitted).
func plainText(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// plainBusMove: ev is a move that encodeEvent writes by hand.
func plainBusMove(ev *event) bool {
	return ev.Kind == evMove && ev.At > 0 && plainText(ev.Instance) && plainText(ev.Origin) && plainText(ev.Nonce) &&
		plainText(ev.User) && plainText(ev.Dir) && ev.Name == "" && ev.Locale == "" && ev.Maze == "" && ev.Channel == "" &&
		!ev.NoCard && ev.Followup == "" && ev.Game == 0 && ev.Key == "" && !ev.On && ev.State == nil
}

// encodeEvent is json.Marshal(ev).
func encodeEvent(ev *event) ([]byte, error) {
	if !plainBusMove(ev) {
		return json.Marshal(ev)
	}
	b := make([]byte, 0, 128)
	b = append(b, moveHead...)
	b = append(b, ev.Instance...)
	b = append(b, moveO...)
	b = append(b, ev.Origin...)
	b = append(b, moveN...)
	b = append(b, ev.Nonce...)
	b = append(b, moveAt...)
	b = strconv.AppendInt(b, ev.At, 10)
	b = append(b, moveU...)
	b = append(b, ev.User...)
	b = append(b, moveD...)
	b = append(b, ev.Dir...)
	return append(b, moveTail...), nil
}

// decodeEvent is json.Unmarshal(msg, ev).
func decodeEvent(msg []byte, ev *event) error {
	if decodePlainMove(string(msg), ev) {
		return nil
	}
	return json.Unmarshal(msg, ev)
}

// decodePlainMove reads a plain move as encodeEvent writes it; false for
// any other message, which ev is then not changed by.
func decodePlainMove(s string, ev *event) bool {
	rest, ok := cutPrefix(s, moveHead)
	if !ok {
		return false
	}
	var out event
	out.Kind = evMove
	if out.Instance, rest, ok = text(rest, moveO); !ok {
		return false
	}
	if out.Origin, rest, ok = text(rest, moveN); !ok {
		return false
	}
	if out.Nonce, rest, ok = text(rest, moveAt); !ok {
		return false
	}
	n := 0
	for n < len(rest) && n < 19 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	at, err := strconv.ParseInt(rest[:n], 10, 64)
	if err != nil || at <= 0 || rest[0] == '0' {
		return false
	}
	out.At = at
	if rest, ok = cutPrefix(rest[n:], moveU); !ok {
		return false
	}
	if out.User, rest, ok = text(rest, moveD); !ok {
		return false
	}
	if out.Dir, rest, ok = text(rest, moveTail); !ok || rest != "" {
		return false
	}
	*ev = out
	return true
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return s, false
	}
	return s[len(prefix):], true
}

// text reads a plain string up to the separator that ends it.
func text(s, end string) (value, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			if !plainText(s[:i]) {
				return "", s, false
			}
			rest, ok := cutPrefix(s[i:], end)
			return s[:i], rest, ok
		}
	}
	return "", s, false
}
