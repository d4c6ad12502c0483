//go:build !race

package render

const raceDetector = false
