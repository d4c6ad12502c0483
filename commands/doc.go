// Package commands is mazebot's Discord features: /maze, /solve and its
// message menu, Play and its game buttons, /daily (its archive in
// archive.go), /leaderboard, /profile, /event and /help, one file each with its definition, its typed options and the
// domain call it makes, and the Announcer that makes the contests' posts.
// New builds them all on a store and stacks the router's middleware: the
// one place they are put together, for the bot and for their tests.
//
// Beside them: views (pure: computed values → a message), customid (the
// custom IDs of buttons and their signatures), pictures (the pool, cache
// and cooldown of expensive pictures). Rules live in the domain (contest
// runs a game's win and the give-up embargo); storage is reached only
// through the domain's interfaces; the router and its middleware are
// package bot's, the connection to Discord bot/discord's (which only app
// imports).
//
// Every text it sends comes from the catalogs of package lang, in the
// language of whoever reads it: a reply in the member's
// (bot.Interaction.Lang), a post nobody asked for (the daily, an event's
// maze, board, results and solution) in the server's, which /daily setup
// and /event start store with the daily or the event. The English of the
// command definitions is the English catalog's (bot.Localize fills it).
//
// It imports bot, lang, mazecore, play, contest, render and metrics
// (interfaces only); never database/sql, Prometheus or a store.
package commands
