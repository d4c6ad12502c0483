// Command gen draws the README's pictures from the bot's own parts: the
// card /maze posts and a game as Play shows it, each the reply the
// commands build (commands/views, in English) with the PNG the renderer
// attaches, laid out as Discord's dark theme shows a Components V2
// message. So the pictures stay true: go test ./docs/gen fails when one
// differs from what the code makes now, and
//
//	go run ./docs/gen
//
// (from the repository's root) draws them again into docs/.
//
// Discord draws emoji with Twemoji, which is not here: gen draws each as a
// small figure in its Twemoji colours (a square, a circle, a flag, a
// mouse), and text in the Go fonts.
package main
