package metrics

import "time"

// Outcomes of an interaction, for Interactions.Interaction.
const (
	OutcomeOK      = "ok"      // handled
	OutcomeRefused = "refused" // the member was told why not (a UserError)
	OutcomeError   = "error"   // an internal error; the member got an apology
	OutcomePanic   = "panic"   // the handler panicked; the member got an apology
	OutcomeUnknown = "unknown" // no handler for the command or button
)

// Interactions is told about every interaction handled.
type Interactions interface {
	// Interaction reports one interaction: its kind (command, component,
	// autocomplete, modal), the command name or button prefix, one of the
	// Outcome constants, and how long handling took, replies included.
	Interaction(kind, name, outcome string, took time.Duration)
}

// Render is what a render worker pool reports.
type Render interface {
	// RenderQueueDepth reports how many renders wait for a worker now.
	RenderQueueDepth(n int)
	// Rendered reports one render: how long it waited for a worker, and
	// how long it took once it had one.
	Rendered(wait, took time.Duration)
}

// Store is told about failed store calls: not the contract's answers
// such as "not found" or "conflict", but a database that did not answer
// or answered with an error.
type Store interface {
	StoreError(op string)
}

// Unknowns is told when Discord sends something this build does not
// understand (a component type, interaction type or option type newer
// than the library), which was left out of the interaction.
type Unknowns interface {
	// NotUnderstood reports one such part, named as "component type 16".
	NotUnderstood(what string)
}

// Arena is what Maze Arena's rooms report. No label names a room, a
// member or an instance: reasons are the protocol's few refusal codes.
type Arena interface {
	// ArenaMoved counts one move played for a member connected here.
	ArenaMoved()
	// ArenaRefused counts one input refused, by the protocol's reason
	// (wall, rate, not_started, watching, finished, bad, …).
	ArenaRefused(reason string)
	// ArenaBusLag reports how long an input took from its publication
	// (its origin's clock) to its delivery here.
	ArenaBusLag(d time.Duration)
	// ArenaTick reports how long a room's loop took over one input: apply
	// and its effects (the broadcasts).
	ArenaTick(d time.Duration)
}

// ArenaState is what this process's rooms hold now, read at each scrape.
type ArenaState struct {
	Rooms       int // rooms held here
	Connections int // members' WebSockets here
	Racers      int // members in a race or its lobby, connected here
	Spectators  int // members connected here who watch
}

// ShardState is one gateway shard that a process runs.
type ShardState struct {
	ID        int
	Connected bool
}

// Nop discards everything.
type Nop struct{}

func (Nop) Interaction(string, string, string, time.Duration) {}
func (Nop) RenderQueueDepth(int)                              {}
func (Nop) Rendered(time.Duration, time.Duration)             {}
func (Nop) StoreError(string)                                 {}
func (Nop) NotUnderstood(string)                              {}
func (Nop) ArenaMoved()                                       {}
func (Nop) ArenaRefused(string)                               {}
func (Nop) ArenaBusLag(time.Duration)                         {}
func (Nop) ArenaTick(time.Duration)                           {}

var (
	_ Interactions = Nop{}
	_ Render       = Nop{}
	_ Store        = Nop{}
	_ Unknowns     = Nop{}
	_ Arena        = Nop{}
)
