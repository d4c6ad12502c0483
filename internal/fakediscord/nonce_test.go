package fakediscord_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
)

// postMessage creates a message through discordgo's REST client with a
// body discordgo's MessageSend cannot express (nonce, enforce_nonce).
func postMessage(sess *bot, channelID string, body map[string]any) (*discordgo.Message, error) {
	b, err := sess.RequestWithBucketID("POST", discordgo.EndpointChannelMessages(channelID), body, discordgo.EndpointChannelMessages(channelID))
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	return &m, json.Unmarshal(b, &m)
}

// postMultipart is postMessage with a multipart body: payload_json and one
// file.
func postMultipart(sess *bot, channelID string, payload map[string]any) (*discordgo.Message, error) {
	ct, body, err := discordgo.MultipartBodyWithJSON(payload, []*discordgo.File{{Name: "a.txt", ContentType: "text/plain", Reader: strings.NewReader("a")}})
	if err != nil {
		return nil, err
	}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	b, err := sess.RequestRaw("POST", endpoint, ct, body, endpoint, 0)
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	return &m, json.Unmarshal(b, &m)
}

// postTwice sends the same create twice and returns both answers.
func postTwice(t *testing.T, post func() (*discordgo.Message, error)) (first, second *discordgo.Message) {
	t.Helper()
	first, err := post()
	if err != nil {
		t.Fatal(err)
	}
	second, err = post()
	if err != nil {
		t.Fatal(err)
	}
	return first, second
}

func TestNonce(t *testing.T) {
	t.Parallel()
	t.Run("OKEnforceReturnsTheFirstMessage", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		body := map[string]any{"content": "daily", "nonce": "daily-2025-01-01", "enforce_nonce": true}
		first, second := postTwice(t, func() (*discordgo.Message, error) { return postMessage(sess, "700", body) })
		if got, want := second.ID, first.ID; got != want {
			t.Errorf("second create returned message %s, want the first, %s", got, want)
		}
		if got, want := fake.MessagesCreated("700"), 1; got != want {
			t.Errorf("MessagesCreated=%d, want %d", got, want)
		}
		if got, want := fake.Message(first.ID).Nonce, "daily-2025-01-01"; got != want {
			t.Errorf("stored nonce %q, want %q", got, want)
		}
		// The same nonce in another channel is another message.
		other, err := postMessage(sess, "701", body)
		if err != nil {
			t.Fatal(err)
		}
		if other.ID == first.ID {
			t.Error("a nonce deduped across channels")
		}
	})

	t.Run("OKWithoutEnforceEveryCreateCounts", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		body := map[string]any{"content": "x", "nonce": 42}
		a, b := postTwice(t, func() (*discordgo.Message, error) { return postMessage(sess, "700", body) })
		if a.ID == b.ID || fake.MessagesCreated("700") != 2 {
			t.Errorf("without enforce_nonce: ids %s %s, %d created, want 2 messages", a.ID, b.ID, fake.MessagesCreated("700"))
		}
		// An earlier create without enforce_nonce still dedupes a later one
		// with it: the integer 42 and the string "42" are one nonce.
		c, err := postMessage(sess, "700", map[string]any{"content": "y", "nonce": "42", "enforce_nonce": true})
		if err != nil {
			t.Fatal(err)
		}
		if c.ID != b.ID {
			t.Errorf("enforced create returned %s, want the newest message with the nonce, %s", c.ID, b.ID)
		}
	})

	t.Run("OKEchoesTheNonce", func(t *testing.T) {
		t.Parallel()
		_, _, sess := setup(t)
		raw, err := sess.RequestWithBucketID("POST", discordgo.EndpointChannelMessages("700"), map[string]any{"content": "x", "nonce": 7}, "")
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Nonce json.RawMessage `json:"nonce"`
		}
		if err := json.Unmarshal(raw, &m); err != nil || string(m.Nonce) != "7" {
			t.Errorf("answer nonce %s (%v), want 7 as sent", m.Nonce, err)
		}
	})

	t.Run("OKMultipart", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		payload := map[string]any{"content": "with a file", "nonce": "mp", "enforce_nonce": true}
		a, b := postTwice(t, func() (*discordgo.Message, error) { return postMultipart(sess, "700", payload) })
		if a.ID != b.ID || fake.MessagesCreated("700") != 1 || len(fake.Message(a.ID).Attachments) != 1 {
			t.Errorf("multipart with enforce_nonce: ids %s %s, %d created", a.ID, b.ID, fake.MessagesCreated("700"))
		}
	})

	t.Run("OKAfterTheWindowANewMessage", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		// A message is always older than a nanosecond when the next create
		// arrives, so this needs no waiting.
		fake.SetNonceWindow(time.Nanosecond)
		body := map[string]any{"content": "x", "nonce": "n", "enforce_nonce": true}
		if a, b := postTwice(t, func() (*discordgo.Message, error) { return postMessage(sess, "700", body) }); a.ID == b.ID {
			t.Error("a nonce older than the window deduped")
		}
	})

	t.Run("OKDeletedMessageDoesNotDedupe", func(t *testing.T) {
		t.Parallel()
		_, _, sess := setup(t)
		body := map[string]any{"content": "x", "nonce": "d", "enforce_nonce": true}
		a, err := postMessage(sess, "700", body)
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.ChannelMessageDelete("700", a.ID); err != nil {
			t.Fatal(err)
		}
		b, err := postMessage(sess, "700", body)
		if err != nil || b.ID == a.ID {
			t.Errorf("after deleting %s: %v, id %s, want a new message", a.ID, err, b.ID)
		}
	})

	t.Run("ErrNonceTooLong", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		if _, err := postMessage(sess, "700", map[string]any{"content": "x", "nonce": strings.Repeat("n", fakediscord.MaxNonce)}); err != nil {
			t.Fatalf("a %d-character nonce: %v", fakediscord.MaxNonce, err)
		}
		_, err := postMessage(sess, "700", map[string]any{"content": "x", "nonce": strings.Repeat("n", fakediscord.MaxNonce+1)})
		if got, want := restCode(err), 50035; got != want {
			t.Errorf("a %d-character nonce: code %d (%v), want %d", fakediscord.MaxNonce+1, got, err, want)
		}
		if got, want := fake.MessagesCreated("700"), 1; got != want {
			t.Errorf("MessagesCreated=%d, want %d", got, want)
		}
	})

	t.Run("ErrNonceNotAStringOrInteger", func(t *testing.T) {
		t.Parallel()
		_, _, sess := setup(t)
		for _, nonce := range []any{1.5, true, map[string]any{}} {
			if _, err := postMessage(sess, "700", map[string]any{"content": "x", "nonce": nonce}); restCode(err) != 50035 {
				t.Errorf("nonce %v: %v, want 50035", nonce, err)
			}
		}
	})
}

// TestRetriedBadGateway shows why a nonce matters: discordgo retries a 502,
// and a 502 that came after the message was created makes it post twice,
// unless the create carries a nonce with enforce_nonce.
func TestRetriedBadGateway(t *testing.T) {
	t.Parallel()
	t.Run("ErrTwoMessagesWithoutNonce", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault(routeMessages, 1, fakediscord.Fault{Status: http.StatusBadGateway, After: true})
		m, err := sess.ChannelMessageSend("710", "hello")
		if err != nil {
			t.Fatalf("discordgo did not recover from one 502: %v", err)
		}
		if got, want := fake.MessagesCreated("710"), 2; got != want {
			t.Errorf("MessagesCreated=%d, want %d (the 502 hid the first)", got, want)
		}
		reqs := fake.Requests(routeMessages)
		if len(reqs) != 2 || reqs[0].Status != 502 || reqs[0].Fault != "502 after" || reqs[1].Status != 200 {
			t.Errorf("requests=%+v, want a 502 then a 200", reqs)
		}
		if got := fake.ChannelMessages("710"); len(got) != 2 || got[1].ID != m.ID {
			t.Errorf("channel=%v, want two messages, the answer being the second", got)
		}
	})

	t.Run("OKOneMessageWithNonce", func(t *testing.T) {
		t.Parallel()
		_, fake, sess := setup(t)
		fake.InjectFault(routeMessages, 1, fakediscord.Fault{Status: http.StatusBadGateway, After: true})
		m, err := postMessage(sess, "710", map[string]any{"content": "hello", "nonce": "retry-1", "enforce_nonce": true})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fake.MessagesCreated("710"), 1; got != want {
			t.Errorf("MessagesCreated=%d, want %d", got, want)
		}
		if got := fake.Requests(routeMessages); len(got) != 2 {
			t.Errorf("%d requests, want the 502 and discordgo's retry", len(got))
		}
		if m.ID != fake.ChannelMessages("710")[0].ID {
			t.Error("the retry did not answer the message the first request created")
		}
	})
}
