package bot

import "time"

// MaybeDeliveredFollowup is a followup Discord may have made before it
// failed (a 502), for the tests outside the package.
func MaybeDeliveredFollowup() error {
	return &restError{route: routeFollowup, status: 502, maybeDone: true}
}

// MemGuard is a ReplayGuard in memory, for the tests outside the package.
type MemGuard = memGuard

// NewMemGuard makes an empty MemGuard.
func NewMemGuard() *MemGuard { return &memGuard{seen: map[string]time.Time{}} }

// Fail makes every FirstSeen return err from now on (nil: none).
func (g *memGuard) Fail(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.err = err
}
