// Package pictures schedules the expensive pictures of the Discord
// features: a PNG or GIF of a big maze, with its generation and solution,
// costs tens of milliseconds of CPU and megabytes of memory, and a burst of
// them (a channel's worth of /solve on 1001×1001 mazes) must neither
// starve the interactions around it of CPU, so that they miss Discord's
// 3 s deadline, nor grow the process without bound. So:
//
//   - pictures are made on a pool of workers sized from GOMAXPROCS; the
//     rest wait their turn in arrival order, each deferred before it waits
//     (emoji replies never enter the pool); small pictures a member asks
//     for have a pool of the same size to themselves, so they never wait
//     behind big ones; the posts nobody asked for (a backlog of daily
//     posts) have a pool a worker smaller, which leaves a core to the
//     members' replies;
//   - a member gets one big picture per cooldown;
//   - pictures are cached, bounded by bytes.
//
// The cooldown is kept in memory, per process. It is fairness, not
// protection: what bounds a process's CPU and memory is its own pool, which
// no other process can share. Behind a load balancer a member whose
// requests land on n processes gets at most n big pictures per cooldown,
// from n pools that together have n times the capacity; a shared cooldown
// would cost a database write per picture to save nothing a process needs.
//
// It knows nothing of mazes: callers say what a picture costs and how to
// make it. It imports bot (the reply it makes and the interaction it
// defers), lang and metrics.
package pictures
