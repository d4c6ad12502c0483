package fakediscord_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// call makes one REST request to the fake and decodes its JSON answer.
func call(t *testing.T, fake *discord, method, path, auth, contentType, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, fake.URL()+"/api/v9"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return res.StatusCode, out
}

func tokenForm(appID, secret, code string) string {
	return url.Values{"client_id": {appID}, "client_secret": {secret}, "grant_type": {"authorization_code"}, "code": {code}}.Encode()
}

const formType = "application/x-www-form-urlencoded"

// TestOAuthCodeExchange: a code is exchanged once, with the app's id and
// secret, for a bearer token that /users/@me reads.
func TestOAuthCodeExchange(t *testing.T) {
	fake := newDiscord(t, fakediscord.Config{})
	appID := fake.Config().AppID
	code := fake.Authorize("1400000000000000042", "identify")

	t.Run("ErrWrongSecret", func(t *testing.T) {
		status, body := call(t, fake, "POST", "/oauth2/token", "", formType, tokenForm(appID, "not-the-secret", code))
		if status != http.StatusUnauthorized || body["error"] != "invalid_client" {
			t.Fatalf("status %d %v, want 401 invalid_client", status, body)
		}
	})
	t.Run("ErrJSON", func(t *testing.T) {
		status, _ := call(t, fake, "POST", "/oauth2/token", "", "application/json", `{"code":"`+code+`"}`)
		if status != http.StatusBadRequest {
			t.Fatalf("status %d, want 400 for a JSON body", status)
		}
	})
	status, body := call(t, fake, "POST", "/oauth2/token", "", formType, tokenForm(appID, fakediscord.DefaultClientSecret, code))
	token, _ := body["access_token"].(string)
	if status != http.StatusOK || token == "" || body["token_type"] != "Bearer" {
		t.Fatalf("exchange: %d %v", status, body)
	}
	t.Run("ErrCodeUsedTwice", func(t *testing.T) {
		status, body := call(t, fake, "POST", "/oauth2/token", "", formType, tokenForm(appID, fakediscord.DefaultClientSecret, code))
		if status != http.StatusBadRequest || body["error"] != "invalid_grant" {
			t.Fatalf("second exchange: %d %v, want 400 invalid_grant", status, body)
		}
	})
	t.Run("OKMe", func(t *testing.T) {
		status, me := call(t, fake, "GET", "/users/@me", "Bearer "+token, "", "")
		if status != http.StatusOK || me["id"] != "1400000000000000042" {
			t.Fatalf("@me: %d %v", status, me)
		}
	})
	t.Run("ErrBearerOnOthers", func(t *testing.T) {
		if status, _ := call(t, fake, "GET", "/users/1", "Bearer "+token, "", ""); status != http.StatusUnauthorized {
			t.Fatalf("a bearer token reading another user: %d, want 401", status)
		}
		if status, _ := call(t, fake, "GET", "/users/@me", "Bearer nope", "", ""); status != http.StatusUnauthorized {
			t.Fatalf("an unknown bearer token: %d, want 401", status)
		}
	})
	if got := fake.OAuthSecrets(); len(got) < 3 || got[0] != fakediscord.DefaultClientSecret {
		t.Fatalf("OAuthSecrets=%v, want the client secret, the code and the tokens", got)
	}
}

// TestEntryPointRule: with Activities enabled, a global overwrite that
// leaves the Entry Point out is refused with 50240; one that sends it
// (with its handler) takes; an Entry Point cannot be a guild's.
func TestEntryPointRule(t *testing.T) {
	fake := newDiscord(t, fakediscord.Config{Token: testToken})
	appID := fake.Config().AppID
	fake.EnableActivities()
	path := "/applications/" + appID + "/commands"
	status, body := call(t, fake, "PUT", path, testToken, "application/json", `[{"name":"maze","description":"Make a maze","type":1}]`)
	if status != http.StatusBadRequest || body["code"] != float64(50240) {
		t.Fatalf("overwrite without the Entry Point: %d %v, want 400 code 50240", status, body)
	}
	entry := `{"name":"launch","description":"Race a maze together","type":4,"handler":1}`
	status, _ = call(t, fake, "PUT", path, testToken, "application/json", `[{"name":"maze","description":"Make a maze","type":1},`+entry+`]`)
	if status != http.StatusOK || fake.EntryPointHandler() != fakediscord.EntryPointAppHandler {
		t.Fatalf("overwrite with the Entry Point: %d, handler %d", status, fake.EntryPointHandler())
	}
	req, _ := http.NewRequest("GET", fake.URL()+"/api/v9"+path, nil)
	req.Header.Set("Authorization", testToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []map[string]any
	_ = json.NewDecoder(res.Body).Decode(&cmds)
	res.Body.Close()
	if len(cmds) != 2 || cmds[1]["handler"] != float64(1) || cmds[0]["handler"] != nil {
		t.Fatalf("commands read back %v, want the Entry Point with handler 1", cmds)
	}
	for name, cmd := range map[string]string{
		"ErrHandler": `{"name":"launch","description":"d","type":4,"handler":3}`,
		"ErrOptions": `{"name":"launch","description":"d","type":4,"handler":1,"options":[{"name":"x","description":"x","type":3}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			if status, body := call(t, fake, "PUT", path, testToken, "application/json", "["+cmd+"]"); status != http.StatusBadRequest || body["code"] != float64(50035) {
				t.Fatalf("%d %v, want 400 code 50035", status, body)
			}
		})
	}
	t.Run("ErrInGuild", func(t *testing.T) {
		status, body := call(t, fake, "PUT", "/applications/"+appID+"/guilds/1/commands", testToken, "application/json", "["+entry+"]")
		if status != http.StatusBadRequest || body["code"] != float64(50035) {
			t.Fatalf("%d %v, want 400 code 50035", status, body)
		}
	})
}

// TestLaunchActivity: a button answered with LAUNCH_ACTIVITY opens an
// instance in its channel, which the bot can look up with its token until
// everyone has left.
func TestLaunchActivity(t *testing.T) {
	ctx, fake, b := setup(t)
	fake.EnableActivities()
	raw, _ := json.Marshal([]discordgo.MessageComponent{row(button("race:x", "Race"))})
	msg := fake.PostChannelMessage(fakediscord.DefaultChannelID, fakediscord.Message{Content: "a maze", AuthorID: fake.Config().AppID, ComponentsJSON: raw})
	b.on(t, "race", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 12})
	})
	ix, err := fake.ClickButton(ctx, member.ButtonSpec{CustomID: "race:x", Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.result(t, ix); err != nil {
		t.Fatal(err)
	}
	resp, err := ix.Wait(ctx)
	if err != nil || resp.Type != 12 || resp.Instance == "" {
		t.Fatalf("response %+v %v, want type 12 with an instance", resp, err)
	}
	in := fake.JoinActivity(fakediscord.DefaultChannelID, "1400000000000000099", "bea")
	if in == nil || in.ID != resp.Instance || len(in.Users) != 2 {
		t.Fatalf("joined %+v, want instance %s with two users", in, resp.Instance)
	}
	path := "/applications/" + fake.Config().AppID + "/activity-instances/" + in.ID
	status, body := call(t, fake, "GET", path, testToken, "", "")
	loc, _ := body["location"].(map[string]any)
	if status != http.StatusOK || body["instance_id"] != in.ID || loc["channel_id"] != fakediscord.DefaultChannelID || loc["kind"] != "gc" {
		t.Fatalf("instance: %d %v", status, body)
	}
	if status, _ := call(t, fake, "GET", path, "", "", ""); status != http.StatusUnauthorized {
		t.Fatalf("without the bot token: %d, want 401", status)
	}
	for _, u := range in.Users {
		fake.LeaveActivity(in.ID, u)
	}
	if status, _ := call(t, fake, "GET", path, testToken, "", ""); status != http.StatusNotFound {
		t.Fatalf("after everyone left: %d, want 404", status)
	}
}

// TestLaunchOutsideServers: outside a server Discord runs an Activity
// only for an app the member installed to their account. A command in the
// DM with the bot through a server's install answered LAUNCH_ACTIVITY is
// refused and opens nothing; one in a group DM through the member's own
// install opens an instance located in that private channel ("pc", no
// server).
func TestLaunchOutsideServers(t *testing.T) {
	ctx, fake, b := setup(t)
	fake.EnableActivities()
	b.on(t, "race", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 12})
	})
	ix, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "race", DM: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.result(t, ix); err == nil || !strings.Contains(err.Error(), "400") || fake.Launches() != 0 {
		t.Fatalf("LAUNCH_ACTIVITY in the DM with the bot through a server's install: %v, %d launches; want it refused", err, fake.Launches())
	}
	const groupDM = "1300000000000000931"
	ix, err = fake.SlashCommand(ctx, member.SlashSpec{Name: "race", DM: true, PrivateChannel: true, ChannelID: groupDM, UserInstall: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.result(t, ix); err != nil {
		t.Fatal(err)
	}
	resp, err := ix.Wait(ctx)
	if err != nil || resp.Type != 12 {
		t.Fatalf("response %+v %v, want type 12", resp, err)
	}
	status, body := call(t, fake, "GET", "/applications/"+fake.Config().AppID+"/activity-instances/"+resp.Instance, testToken, "", "")
	loc, _ := body["location"].(map[string]any)
	if _, guild := loc["guild_id"]; status != http.StatusOK || loc["kind"] != "pc" || loc["channel_id"] != groupDM || guild || !strings.Contains(resp.Instance, "-pc-"+groupDM) {
		t.Fatalf("the group DM's instance %s: %d %v, want a private channel's", resp.Instance, status, body)
	}
}
