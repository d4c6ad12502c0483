package app

import (
	"io"
	"log/slog"

	"mazebot/bot/discord"
)

// NewLogger builds the one logger, at cfg's level (LOG_LEVEL) and in its
// format (LOG_FORMAT): every component gets it With its name.
func NewLogger(w io.Writer, cfg Config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel, ReplaceAttr: redactTokens}
	if cfg.LogJSON {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// redactTokens keeps interaction and webhook tokens out of every log line,
// whichever error or text carries their URL.
func redactTokens(_ []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		if s := a.Value.String(); discord.RedactTokens(s) != s {
			a.Value = slog.StringValue(discord.RedactTokens(s))
		}
	case slog.KindAny:
		if err, ok := a.Value.Any().(error); ok && err != nil {
			if s := err.Error(); discord.RedactTokens(s) != s {
				a.Value = slog.StringValue(discord.RedactTokens(s))
			}
		}
	}
	return a
}
