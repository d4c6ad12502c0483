//go:build race

package render

// raceDetector trims the slowest tests, which the race detector makes
// several times slower and which race nothing.
const raceDetector = true
