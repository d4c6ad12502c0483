package fakediscord

import (
	"bytes"
	"encoding/json"
	"time"
)

// DefaultNonceWindow is how long a message nonce dedupes a create with
// enforce_nonce. Discord's documentation says only "the past few minutes"
// (discord-api-docs, resources/message, Create Message: enforce_nonce; the
// 2024 change log entry "Enforced Nonces on Create Message Endpoint" says
// "within a few minutes"); 5 minutes is the fake's reading of that.
const DefaultNonceWindow = 5 * time.Minute

// MaxNonce is the longest nonce Discord accepts, in characters.
const MaxNonce = 25

// nonceFields are a create's nonce (as text, and as sent) and enforce_nonce.
type nonceFields struct {
	text    string
	raw     json.RawMessage
	enforce bool
}

// decodeNonce reads nonce (an integer or a string of at most 25
// characters) and enforce_nonce.
func decodeNonce(obj map[string]json.RawMessage) (nonceFields, *apiError) {
	var n nonceFields
	fe := newFormErrors()
	if raw := obj["nonce"]; !isNull(raw) {
		raw = bytes.TrimSpace(raw)
		var str string
		var num json.Number
		switch {
		case json.Unmarshal(raw, &str) == nil:
			n.text = str
		case json.Unmarshal(raw, &num) == nil && isInteger(num):
			n.text = num.String()
		default:
			fe.add([]string{"nonce"}, "NONCE_TYPE_INVALID", "Nonce must be an integer or a string.")
		}
		if runeLen(n.text) > MaxNonce {
			fe.add([]string{"nonce"}, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
		}
		n.raw = append(json.RawMessage(nil), raw...)
	}
	if raw := obj["enforce_nonce"]; !isNull(raw) && json.Unmarshal(raw, &n.enforce) != nil {
		fe.add([]string{"enforce_nonce"}, "BASE_TYPE_BOOLEAN", "Must be either true or false.")
	}
	if fe.any() {
		return nonceFields{}, fe.err()
	}
	return n, nil
}

func isInteger(n json.Number) bool {
	_, err := n.Int64()
	return err == nil
}

// nonceKey scopes a nonce to its channel and author. Discord documents the
// author ("created by the same author"); the channel is the fake's reading,
// so a create never returns a message from another channel. A string nonce
// and an integer nonce with the same digits are the same nonce.
func nonceKey(channelID, authorID, nonce string) string {
	return channelID + "\x00" + authorID + "\x00" + nonce
}

// nonceMatchLocked returns the message created in channelID by the bot with
// nonce within the nonce window, or nil. st.mu must be held.
func (st *messageStore) nonceMatchLocked(channelID, nonce string) *Message {
	m := st.byID[st.nonces[nonceKey(channelID, st.s.cfg.AppID, nonce)]]
	if m == nil || m.Deleted || time.Since(m.Timestamp) > st.nonceWindow {
		return nil
	}
	return m
}

// SetNonceWindow sets how long a nonce dedupes creates with enforce_nonce
// (d <= 0 restores Config.NonceWindow; Reset does too).
func (s *Server) SetNonceWindow(d time.Duration) {
	if d <= 0 {
		d = s.cfg.NonceWindow
	}
	st := s.messages
	st.mu.Lock()
	defer st.mu.Unlock()
	st.nonceWindow = d
}
