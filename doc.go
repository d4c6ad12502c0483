// Command mazebot is a Discord bot that makes mazes, and a command line that
// makes them without Discord.
//
//	mazebot                          run the bot (DISCORD_TOKEN from the environment or .env)
//	mazebot maze sidewinder 21       print a maze, no Discord needed
//	mazebot help                     usage
//
// main chooses the mode; package app wires the bot (configuration, logger,
// store, commands), and main reaches it only from bot.go. Built with -tags
// mazeonly, main_mazeonly.go takes bot.go's place: the maze command alone,
// without the bot's packages and the memory their initialisation takes.
package main
