// Package storetest is the contract every mazebot store adapter keeps: one
// behavioural test suite, Run, that an adapter's own tests call with a way
// to open a fresh database. It tests the adapter only through the domain's
// interfaces (play.Store, contest.DailyStore, contest.EventStore,
// contest.Posts, Secret, and FirstSeen and ForgetSeen, which the bot
// uses against replayed interactions), so store/sqlite and store/postgres are held
// to the same rules: optimistic writes on a game's seq, claims that
// happen exactly once however many processes race, rankings and streaks.
//
// Beyond what the interfaces' comments say, the suite asks of an adapter
// what the domain relies on without saying: times come back in UTC at
// millisecond precision (what is finer is dropped, so values read back
// compare equal to what a later write passes as expected), and records the
// store could not read back are refused.
//
// It is imported by adapters' tests only. It imports play, contest,
// mazecore and the standard library; never an adapter, Discord or a
// renderer.
package storetest
