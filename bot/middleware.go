package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/metrics"
)

// The router's middleware, outermost first as the wiring stacks them:
//
//	AutoDefer      defers a slow handler for it, before Discord's 3 s
//	Replays        drops an interaction delivered twice
//	Logged         a debug line for every interaction
//	Metrics        counts every interaction by route and outcome
//	ErrorReply     tells the member a handler's error, privately
//	Recover        turns a panic into an error (and its stack into a log)
//
// and per command: GuildOnly, ManagersOnly.

// ErrReplayed is what the chain returns for an interaction handled before:
// it is dropped unanswered (the first delivery answered it).
var ErrReplayed = errors.New("interaction handled before")

// errPanicked marks a handler that panicked; Recover logged its stack.
var errPanicked = errors.New("handler panicked")

// AutoDefer acknowledges an interaction whose handler is still working
// after the given time, well inside Discord's 3 s: a command then shows
// "thinking…", a button's message stays (Responder.Acknowledge). The
// handler's reply then edits or follows the deferral; it never races a
// timer of its own.
func AutoDefer(after time.Duration, log *slog.Logger) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, in *Interaction) error {
			timer := time.AfterFunc(after, func() {
				if err := in.Respond.Acknowledge(ctx); err != nil {
					log.Warn("auto-defer", "interaction", in.ID, "err", err)
				}
			})
			defer timer.Stop()
			return next(ctx, in)
		}
	}
}

// ReplayGuard remembers which interactions have been handled, where every
// process sharing the database sees it. The store implements it.
type ReplayGuard interface {
	// FirstSeen records that the interaction id arrived at at and reports
	// whether it is new: true for exactly one caller per id, in whichever
	// process, until ForgetSeen removes it.
	FirstSeen(ctx context.Context, interactionID string, at time.Time) (bool, error)
	// ForgetSeen deletes the ids seen before before.
	ForgetSeen(ctx context.Context, before time.Time) (int64, error)
}

// ReplayWindow is how long a handled interaction's id is remembered: an
// interaction token lives 15 minutes, after which nothing can be answered
// anyway (and the HTTP endpoint refuses timestamps older than 5 minutes);
// 5 more allow for clocks that differ between processes.
const ReplayWindow = 20 * time.Minute

// Replays runs each interaction once, however often it is delivered (a
// gateway replay, a retried HTTP POST, a second process): a repeat ends
// in ErrReplayed, unanswered. When the guard cannot record it, the member
// is asked to try again: running it twice (a second post, a daily
// re-enabled) is worse.
func Replays(guard ReplayGuard, log *slog.Logger) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, in *Interaction) error {
			first, err := guard.FirstSeen(ctx, in.ID, time.Now())
			if err != nil {
				log.Error("replay guard: cannot record the interaction; refusing it", "interaction", in.ID, "err", err)
				if err := in.Respond.Reply(ctx, Reply{Content: in.Lang().T("bot.try_again"), Ephemeral: true}); err != nil {
					log.Warn("refuse after the replay guard failed", "interaction", in.ID, "err", err)
				}
				return nil
			}
			if !first {
				log.Warn("dropped a replayed interaction: it was handled before", "interaction", in.ID)
				return ErrReplayed
			}
			return next(ctx, in)
		}
	}
}

// Logged writes a debug line for every interaction handled: its id, kind,
// member, route, outcome and time; the errors have their own lines
// (ErrorReply).
func Logged(log *slog.Logger) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, in *Interaction) error {
			start := time.Now()
			err := next(ctx, in)
			log.Debug("handled", "interaction", in.ID, "type", in.Type.String(), "user", in.UserID(), "name", in.Route,
				"outcome", outcomeOf(err), "elapsed", time.Since(start))
			return err
		}
	}
}

// Metrics reports every interaction to m: its kind, route ("unknown" for
// none: an unknown custom_id could be anything, and each would be a new
// series), outcome and how long it took, replies included.
func Metrics(m metrics.Interactions) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, in *Interaction) error {
			start := time.Now()
			err := next(ctx, in)
			name := in.Route
			if name == "" {
				name = metrics.OutcomeUnknown
			}
			m.Interaction(kindOf(in.Type), name, outcomeOf(err), time.Since(start))
			return err
		}
	}
}

// outcomeOf classifies what a handler returned.
func outcomeOf(err error) string {
	var (
		unknown *unknownRouteError
		user    *UserError
	)
	switch {
	case err == nil:
		return metrics.OutcomeOK
	case errors.Is(err, errPanicked):
		return metrics.OutcomePanic
	case errors.As(err, &unknown):
		return metrics.OutcomeUnknown
	case errors.As(err, &user):
		return metrics.OutcomeRefused
	}
	return metrics.OutcomeError
}

// kindOf names an interaction type for metrics.
func kindOf(t discordgo.InteractionType) string {
	switch t {
	case discordgo.InteractionApplicationCommand:
		return "command"
	case discordgo.InteractionMessageComponent:
		return "component"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	case discordgo.InteractionModalSubmit:
		return "modal"
	}
	return "other"
}

// ErrorReply tells the member, privately and in their language, what went
// wrong: a UserError's own message, an apology for anything else (the
// detail goes to the log), and what no route takes; nothing for a message
// Discord may have delivered (ErrMaybeDelivered). It returns the error
// it told, so that the middleware around it can count it.
func ErrorReply(log *slog.Logger) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, in *Interaction) error {
			err := next(ctx, in)
			if err == nil || errors.Is(err, ErrReplayed) {
				return err
			}
			log := log.With("interaction", in.ID, "type", in.Type.String(), "user", in.UserID())
			l := in.Lang()
			var (
				message string
				unknown *unknownRouteError
			)
			switch {
			case in.Type == discordgo.InteractionApplicationCommandAutocomplete:
				// No message answers an autocompletion: the picker shows
				// its own "failed to load".
				log.Warn("autocompletion failed", "name", in.Route, "err", err)
				return err
			case errors.Is(err, ErrMaybeDelivered):
				// A message that may have reached the member: an apology
				// after it would say it failed.
				log.Warn("a message Discord may have delivered failed; the member is not told", "name", in.Route, "err", err)
				return err
			case errors.Is(err, errPanicked):
				message = l.T("error.panic")
			case errors.As(err, &unknown):
				log.Warn("no handler", "name", unknown.what)
				message = l.T("error.unknown_command")
				if in.Type == discordgo.InteractionMessageComponent {
					message = l.T("error.unknown_button")
				}
			default:
				log = log.With("name", in.Route)
				var internal bool
				if message, internal = UserMessage(err, l); internal {
					log.Error("handler failed", "err", err)
				} else {
					log.Info("refused", "reason", err)
				}
			}
			tell(ctx, in, log, message)
			return err
		}
	}
}

// tell sends message to the member, ephemerally. When the handler already
// answered publicly (a deferral, say), a followup carries it instead.
func tell(ctx context.Context, in *Interaction, log *slog.Logger, message string) {
	reply := Reply{Content: "⚠️ " + message, Ephemeral: true}
	if err := in.Respond.Reply(ctx, reply); err != nil {
		if err := in.Respond.Followup(ctx, reply); err != nil {
			log.Error("could not tell the member about an error", "err", err)
		}
	}
}

// Recover turns a panic in the handler into errPanicked, with the stack
// in the log: ErrorReply then apologises, and the process lives on.
func Recover(log *slog.Logger) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, in *Interaction) (err error) {
			defer func() {
				if p := recover(); p != nil {
					log.Error("handler panicked", "interaction", in.ID, "name", in.Route, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
					err = errPanicked
				}
			}()
			return next(ctx, in)
		}
	}
}

// GuildOnly refuses an interaction from outside a server (a DM) with the
// message refusal, which says what needs a server, and one from a server
// that has not added the bot (a member's own install of it used there)
// with the message that says so.
func GuildOnly(refusal string) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, in *Interaction) error {
			if in.GuildID == "" || in.Member == nil {
				return Refuse(refusal)
			}
			if !ServerInstalled(in) {
				return Refuse("error.needs_server_install")
			}
			return next(ctx, in)
		}
	}
}

// ServerInstalled tells whether the server an interaction comes from has
// added the bot: Discord lists the installs that authorised it (the key
// "0", the server's, or "1", the member's own). An interaction without the
// list comes from before user installs, from a server install.
func ServerInstalled(in *Interaction) bool {
	if in.GuildID == "" || in.AuthorizingIntegrationOwners == nil {
		return in.GuildID != ""
	}
	_, ok := in.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return ok
}

// ManagersOnly refuses DMs and members without Manage Server (or
// Administrator, which implies it), as Discord computed for this channel:
// a command's default permissions hide it, but overrides can change that.
// refusal is the message that says what needs the permission and what the
// member can do instead.
func ManagersOnly(refusal string) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, in *Interaction) error {
			if in.GuildID == "" || in.Member == nil {
				return Refuse("error.manager_dm")
			}
			if in.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
				return Refuse(refusal)
			}
			return next(ctx, in)
		}
	}
}

// Subcommands routes a command with subcommands to the handler of the
// one used; any other is refused with usage, the message that lists them.
func Subcommands(handlers map[string]Handler, usage string) Handler {
	return func(ctx context.Context, in *Interaction) error {
		if h, ok := handlers[Subcommand(in)]; ok {
			return h(ctx, in)
		}
		return Refuse(usage)
	}
}
