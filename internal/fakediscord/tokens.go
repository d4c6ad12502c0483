package fakediscord

import "slices"

// InteractionTokens returns every interaction token the fake has issued
// since New, Reset notwithstanding: secrets a bot must never log.
func (s *Server) InteractionTokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.issued)
}
