package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The interaction's side of the REST API: the first callback, then the
// webhook routes of its token (followups, and the original message).

// InteractionResponseLaunchActivity is callback type 12, LAUNCH_ACTIVITY:
// the Activity opens for the member, in the interaction's channel. It
// carries no data. discordgo v0.29.0 has no constant for it.
const InteractionResponseLaunchActivity discordgo.InteractionResponseType = 12

// replyType is the message type of the interaction's responses.
func (ix *Interaction) replyType() int {
	if ix.Type != discordgo.InteractionApplicationCommand {
		return int(discordgo.MessageTypeDefault)
	}
	var p struct {
		Data struct {
			Type int `json:"type"`
		} `json:"data"`
	}
	_ = json.Unmarshal(ix.Payload, &p)
	if p.Data.Type == int(discordgo.ChatApplicationCommand) {
		return int(discordgo.MessageTypeChatInputCommand)
	}
	return int(discordgo.MessageTypeContextMenuCommand)
}

// meta is what the messages the interaction creates tell of it. ix.mu
// must be held.
func (ix *Interaction) metaLocked() *ixMeta {
	return &ixMeta{id: ix.ID, token: ix.Token, typ: ix.Type, command: ix.CommandName, user: ix.user,
		owners: ix.owners, originalID: ix.originalID, sourceID: ix.SourceMessageID}
}

func (st *interactionStore) postCallback(w http.ResponseWriter, r *http.Request) {
	obj, files, perr := readPayload(w, r)
	ix := st.get(r.PathValue("interaction"))
	if ix == nil || ix.Token != r.PathValue("token") {
		st.s.fail(w, r, errUnknownIx, nil)
		return
	}
	resp, e := ix.callback(obj, files, perr)
	if e != nil {
		st.s.fail(w, r, e, ix)
		return
	}
	st.s.logf("interaction %s: callback type %d after %v", ix.ID, resp.Type, resp.Elapsed)
	w.WriteHeader(http.StatusNoContent)
}

// callback takes obj (with files, or the error reading them) as the
// interaction's first callback, under Discord's rules, and returns it.
func (ix *Interaction) callback(obj map[string]json.RawMessage, files []Attachment, perr *apiError) (*Response, *apiError) {
	ix.mu.Lock()
	resp, e := ix.callbackLocked(obj, files, perr)
	if e == nil {
		ix.resp = resp
		if ix.timer != nil {
			ix.timer.Stop()
		}
	}
	ix.mu.Unlock()
	if e == nil {
		ix.changed()
	}
	return resp, e
}

func (ix *Interaction) callbackLocked(obj map[string]json.RawMessage, files []Attachment, perr *apiError) (*Response, *apiError) {
	if ix.resp != nil {
		return nil, errAlreadyAcked
	}
	elapsed := time.Since(ix.Dispatched)
	if elapsed > ix.deadline {
		return nil, withDetail(errUnknownIx, fmt.Sprintf("first response after %v; the deadline is %v", elapsed.Round(time.Millisecond), ix.deadline))
	}
	if perr != nil {
		return nil, perr
	}
	if obj == nil {
		return nil, errInvalidJSON
	}
	var typ int
	if raw, ok := obj["type"]; !ok || json.Unmarshal(raw, &typ) != nil {
		fe := newFormErrors()
		fe.add([]string{"type"}, "BASE_TYPE_REQUIRED", "This field is required")
		return nil, fe.err()
	}
	data := map[string]json.RawMessage{}
	if raw := obj["data"]; !isNull(raw) {
		if err := json.Unmarshal(raw, &data); err != nil {
			fe := newFormErrors()
			fe.add([]string{"data"}, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
			return nil, fe.err()
		}
	}
	resp := &Response{Type: discordgo.InteractionResponseType(typ), Data: obj["data"], Elapsed: elapsed}
	invalid := withDetail(errInvalidRespType, fmt.Sprintf("response type %d to interaction type %d", typ, ix.Type))
	if !ix.accepts(resp.Type) {
		return nil, invalid
	}
	ms := ix.s.messages
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		f, e := decodeMsgFields(data, files, "data")
		if e != nil {
			return nil, e
		}
		flags := f.flags & (FlagEphemeral | FlagSuppressEmbeds | FlagSuppressNotifications | FlagComponentsV2)
		if e := validateFields(f, flags, nil, true, "data"); e != nil {
			return nil, e
		}
		ms.mu.Lock()
		m := ms.createLocked(ix.ChannelID, ix.GuildID, f, flags, ix.replyType(), ix.metaLocked())
		ms.mu.Unlock()
		ix.originalID = m.ID
		resp.fill(f, flags, m)
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		f, e := decodeMsgFields(data, nil, "data")
		if e != nil {
			return nil, e
		}
		flags := f.flags&(FlagEphemeral|FlagSuppressEmbeds|FlagSuppressNotifications) | FlagLoading
		ms.mu.Lock()
		m := ms.createLocked(ix.ChannelID, ix.GuildID, &msgFields{}, flags, ix.replyType(), ix.metaLocked())
		ms.mu.Unlock()
		ix.originalID = m.ID
		resp.Flags = flags &^ FlagLoading
		resp.MessageID = m.ID
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		var f *msgFields
		if resp.Type == discordgo.InteractionResponseUpdateMessage {
			var e *apiError
			if f, e = decodeMsgFields(data, files, "data"); e != nil {
				return nil, e
			}
		}
		ms.mu.Lock()
		defer ms.mu.Unlock()
		src := ms.byID[ix.SourceMessageID]
		if src == nil || src.Deleted {
			return nil, errUnknownMessage
		}
		ix.originalID = src.ID
		resp.MessageID, resp.EditsBefore = src.ID, src.Edits
		if f != nil {
			flags, e := editedFlags(src, f, "data")
			if e == nil {
				e = validateFields(f, flags, src, false, "data")
			}
			if e != nil {
				return nil, e
			}
			src = ms.editLocked(src, f)
			resp.fill(f, src.Flags, src)
		}
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		if raw, ok := data["choices"]; ok {
			if err := json.Unmarshal(raw, &resp.Choices); err != nil || len(resp.Choices) > 25 {
				fe := newFormErrors()
				fe.add([]string{"data", "choices"}, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
				return nil, fe.err()
			}
		}
	case InteractionResponseLaunchActivity:
		in, e := ix.s.activities.launch(ix)
		if e != nil {
			return nil, e
		}
		resp.Instance = in.ID
	case discordgo.InteractionResponseModal:
		id, title, comps, e := validateModal(data)
		if e != nil {
			return nil, e
		}
		resp.CustomID, resp.Title, resp.ComponentsJSON = id, title, comps
		resp.Components = decodeComponents(comps)
	default:
		return nil, invalid
	}
	return resp, nil
}

// accepts reports whether Discord takes a first callback of type t to ix:
// an autocomplete wants choices and nothing else, an update needs the
// message a component is on, and a modal cannot answer a modal.
func (ix *Interaction) accepts(t discordgo.InteractionResponseType) bool {
	autocomplete := ix.Type == discordgo.InteractionApplicationCommandAutocomplete
	switch t {
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		return autocomplete
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		return ix.SourceMessageID != ""
	case discordgo.InteractionResponseModal:
		return !autocomplete && ix.Type != discordgo.InteractionModalSubmit
	default:
		return !autocomplete
	}
}

// fill takes the message fields of a callback that made or updated m.
func (r *Response) fill(f *msgFields, flags int, m *Message) {
	r.Flags = flags
	r.Content = f.content
	r.Embeds = f.embeds
	r.ComponentsJSON = f.components
	r.Components = decodeComponents(f.components)
	r.Files = slices.Clone(m.Attachments[len(m.Attachments)-len(f.files):])
	r.MessageID = m.ID
}

// webhook finds the interaction behind /webhooks/{app}/{token} and checks
// that its token may be used. ix.mu must not be held; on success it is,
// and the caller unlocks it.
func (st *interactionStore) webhook(r *http.Request) (*Interaction, *apiError) {
	ix := st.withToken(r.PathValue("token"))
	if r.PathValue("app") != st.s.cfg.AppID || ix == nil {
		return ix, errUnknownWebhook
	}
	ix.mu.Lock()
	var e *apiError
	switch {
	case time.Since(ix.Dispatched) > st.s.cfg.TokenLifetime:
		e = errInvalidWHToken
	case ix.resp == nil:
		e = withDetail(errUnknownWebhook, "the interaction has not been acknowledged")
	}
	if e != nil {
		ix.mu.Unlock()
		return ix, e
	}
	return ix, nil
}

// messageLocked resolves @original or a followup id of ix. ix.mu and
// ms.mu must be held.
func (ix *Interaction) messageLocked(ms *messageStore, id string) (*Message, *apiError) {
	if id == "@original" {
		id = ix.originalID
		if id == "" {
			return nil, withDetail(errUnknownMessage, "the interaction has no original response message")
		}
	} else if id != ix.originalID && !slices.Contains(ix.followupIDs, id) {
		return nil, withDetail(errUnknownMessage, "not a message of this interaction")
	}
	m := ms.byID[id]
	if m == nil || m.Deleted {
		return nil, errUnknownMessage
	}
	return m, nil
}

// onMessage runs fn on ix's webhook message named by the path, both locks
// held, after the webhook's checks; it records and answers what fails,
// and returns the message fn made (nil when it failed).
func (st *interactionStore) onMessage(w http.ResponseWriter, r *http.Request, fn func(ix *Interaction, ms *messageStore, m *Message) (*Message, *apiError)) (*Interaction, *Message) {
	ix, e := st.webhook(r)
	var m *Message
	if e == nil {
		ms := st.s.messages
		ms.mu.Lock()
		if m, e = ix.messageLocked(ms, r.PathValue("message")); e == nil {
			m, e = fn(ix, ms, m)
		}
		ms.mu.Unlock()
		ix.mu.Unlock()
	}
	if e != nil {
		st.s.fail(w, r, e, ix)
		return ix, nil
	}
	return ix, m
}

func (st *interactionStore) getMessage(w http.ResponseWriter, r *http.Request) {
	_, m := st.onMessage(w, r, func(_ *Interaction, _ *messageStore, m *Message) (*Message, *apiError) { return m, nil })
	if m != nil {
		writeJSON(w, http.StatusOK, st.s.wire(m))
	}
}

func (st *interactionStore) patchMessage(w http.ResponseWriter, r *http.Request) {
	obj, files, perr := readPayload(w, r)
	_, m := st.onMessage(w, r, func(_ *Interaction, ms *messageStore, m *Message) (*Message, *apiError) {
		if perr != nil {
			return nil, perr
		}
		if obj == nil {
			obj = map[string]json.RawMessage{}
		}
		f, e := decodeMsgFields(obj, files)
		var flags int
		if e == nil {
			flags, e = editedFlags(m, f)
		}
		if e == nil {
			e = validateFields(f, flags, m, false)
		}
		if e != nil {
			return nil, e
		}
		return ms.editLocked(m, f), nil
	})
	if m != nil {
		writeJSON(w, http.StatusOK, st.s.wire(m))
	}
}

func (st *interactionStore) deleteMessage(w http.ResponseWriter, r *http.Request) {
	_, m := st.onMessage(w, r, func(_ *Interaction, ms *messageStore, m *Message) (*Message, *apiError) {
		ms.deleteLocked(m)
		return m, nil
	})
	if m != nil {
		w.WriteHeader(http.StatusNoContent)
	}
}

func (st *interactionStore) postFollowup(w http.ResponseWriter, r *http.Request) {
	obj, files, perr := readPayload(w, r)
	ix, e := st.webhook(r)
	var m *Message
	if e == nil {
		m, e = ix.followupLocked(obj, files, perr)
		ix.mu.Unlock()
	}
	if e != nil {
		st.s.fail(w, r, e, ix)
		return
	}
	ix.changed()
	if r.URL.Query().Get("wait") != "true" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, http.StatusOK, st.s.wire(m))
}

// followupLocked makes a followup message. ix.mu must be held.
func (ix *Interaction) followupLocked(obj map[string]json.RawMessage, files []Attachment, perr *apiError) (*Message, *apiError) {
	if perr != nil {
		return nil, perr
	}
	if obj == nil {
		return nil, errEmptyMessage
	}
	f, e := decodeMsgFields(obj, files)
	if e != nil {
		return nil, e
	}
	flags := f.flags & (FlagEphemeral | FlagSuppressEmbeds | FlagSuppressNotifications | FlagComponentsV2)
	ms := ix.s.messages
	ms.mu.Lock()
	defer ms.mu.Unlock()
	// After a type 5 deferral the first followup edits the loading message
	// (Discord's documented backwards compatibility); its ephemeral flag is
	// ignored.
	if orig := ms.byID[ix.originalID]; orig != nil && !orig.Deleted && orig.Loading() {
		flags, e := editedFlags(orig, f)
		if e == nil {
			e = validateFields(f, flags, orig, true)
		}
		if e != nil {
			return nil, e
		}
		return ms.editLocked(orig, f), nil
	}
	if e := validateFields(f, flags, nil, true); e != nil {
		return nil, e
	}
	m := ms.createLocked(ix.ChannelID, ix.GuildID, f, flags, int(discordgo.MessageTypeDefault), ix.metaLocked())
	ix.followupIDs = append(ix.followupIDs, m.ID)
	return m, nil
}
