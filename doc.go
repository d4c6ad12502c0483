// Command mazebot is a Discord bot that makes mazes, and a command line that
// makes them without Discord.
//
//	mazebot                          run the bot (DISCORD_TOKEN from the environment or .env)
//	mazebot maze sidewinder 21       print a maze, no Discord needed
//	mazebot help                     usage
//
// main wires everything: configuration, logger, store, commands and bot.
// It is the only package that imports all the others.
package main
