package mazecore

import "syscall"

// reserve returns n zero bytes for a list that may touch only a few of
// them, and the function that gives them back. From reserveMapped bytes
// on they are mapped from the OS rather than made on the heap: the
// runtime zeroes a large span it places over memory freed before,
// touching every page, and digging's list at 4000×4000 cells reserves 48
// MB of which it uses 7 (such runs peaked at 56 MB instead of 15.5).
// Mapped pages that are never touched cost nothing.
func reserve(n int) (b []byte, free func(), mapped bool) {
	if n >= reserveMapped {
		b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err == nil {
			return b, func() { _ = syscall.Munmap(b) }, true
		}
	}
	return make([]byte, n), func() {}, false
}
