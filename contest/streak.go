package contest

// The streak rule, written once: everything that shows a streak (the
// finish message, /daily today, the leaderboard, the share lines, the
// recap's milestones, the profile) reads it from here.
//
//   - A day solved adds one to the streak.
//   - Each FreezeEvery days of streak (7, 14, 21, …) earn a freeze; a
//     member holds at most MaxFreezes.
//   - A day that ends unsolved spends a freeze, and the streak survives
//     it (the frozen day adds nothing); without one the streak is lost.
//   - Today is never missed before it ends.
//
// It is computed from the days solved alone, so it needs no store of its
// own and every process sees the same streak.
const (
	FreezeEvery = 7
	MaxFreezes  = 2
)

// StreakState is where a member's streak stands on a day.
type StreakState struct {
	// Days is the current streak: days solved since it began, frozen
	// days not counted.
	Days int
	// Freezes are held for the next missed days (0..MaxFreezes).
	Freezes int
	// Best is the longest streak the member ever reached.
	Best int
	// Frozen counts the days the current streak survived on a freeze.
	Frozen int
}

// StreakOf is the streak as of today from the days solved (newest first,
// none after today, each once).
func StreakOf(dates []Date, today Date) StreakState {
	return walkStreak(dates, today, nil)
}

// Streak is the number of days of the streak as of today (StreakOf).
func Streak(dates []Date, today Date) int { return StreakOf(dates, today).Days }

// walkStreak applies the rule day by day from the first date solved to
// today, calling visit with the state at the end of each day that is
// over (and at today when it is solved), visit nil for none; it returns
// the state as of today.
func walkStreak(dates []Date, today Date, visit func(Date, StreakState)) StreakState {
	var s StreakState
	if len(dates) == 0 {
		return s
	}
	i := len(dates) - 1 // oldest first
	for day := dates[i]; !today.Before(day); day = day.AddDays(1) {
		solved := false
		for i >= 0 && dates[i] == day {
			solved = true
			i--
		}
		switch {
		case solved:
			s.Days++
			if s.Days%FreezeEvery == 0 && s.Freezes < MaxFreezes {
				s.Freezes++
			}
			s.Best = max(s.Best, s.Days)
		case day == today:
			// Not over yet: nothing is missed.
			continue
		case s.Days == 0:
			// No streak to save.
		case s.Freezes > 0:
			s.Freezes--
			s.Frozen++
		default:
			s.Days, s.Frozen = 0, 0
		}
		if visit != nil {
			visit(day, s)
		}
	}
	return s
}
