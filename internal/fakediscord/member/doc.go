// Package member acts as Discord's members against a fake Discord
// (package fakediscord), for tests: it runs slash commands, clicks
// buttons, runs message commands, submits modals and types in
// autocompleted options the way a member's Discord client does — it checks
// what it sends against the commands the bot registered and clicks only
// buttons a message shows, which Discord's clients enforce — and it waits
// for what the member then sees: the bot's first response, the message it
// settles on, followups, channel posts.
//
// fakediscord is Discord's side: the protocol and its state (gateway,
// REST routes, messages, interactions as Discord builds them). member is
// the test's side of the screen. A Client is cheap: make one per test (or
// share one) for a Server:
//
//	fake := fakediscord.New(fakediscord.Config{})
//	members := member.New(fake)
//	ix, err := members.SlashCommand(ctx, member.SlashSpec{Name: "maze"})
//	msg, err := ix.WaitFinal(ctx, nil)
//
// It imports fakediscord and discordgo, nothing of mazebot's.
package member
