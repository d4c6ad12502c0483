// Package app is mazebot's one wiring: the typed Config, parsed and
// checked once from the environment (ParseConfig), the logger, and Build,
// which opens the store and puts the domain, the Discord features and the
// bot together into an App that Runs until its context ends and Closes.
// main runs it; the end-to-end tests build it against a fake Discord.
//
// app is the only package that imports every other; none imports it.
package app
