// Package views turns what the Discord features computed into the
// messages members see: a maze card, its solution, a game, the daily's
// post, an event's maze, board and results, the leaderboard, /help, and
// the lines a win earns. A view is a pure function of its arguments and
// the reader's language: it generates no maze, rates none, reads no store
// and sends nothing, so each one is testable on its own. What is costly
// (a maze, its rating and par, a picture) is made once by the caller and
// handed in.
//
// A maze card's buttons are one table, cardRow (buttons.go): each says
// the places it stands on and, from the maze and the Setup the features
// were built with, whether it is offered there.
//
// It imports bot (the Reply it builds), lang, mazecore, play and contest
// (their values), render (emoji grids are text) and customid.
package views
