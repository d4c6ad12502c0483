//go:build !linux

package mazecore

// reserve returns n zero bytes and a function that gives them back; off
// Linux they are made on the heap (see reserve_linux.go).
func reserve(n int) (b []byte, free func(), mapped bool) {
	return make([]byte, n), func() {}, false
}
