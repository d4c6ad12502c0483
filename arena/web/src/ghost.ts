// A ghost replays a finished run of today's daily beside the racer, on
// the race's clock: where it stood after each move, and from when (ms
// after the race's start). It only shows; the server counts nothing of it.
import type { GhostStep } from "./protocol";

// ghostAt is where a ghost is ms after the race's start: at the last step
// made by then, the first (the start) before its first move. As the
// server's ghostAt (arena/ghost.go).
export function ghostAt(steps: GhostStep[], ms: number): [number, number] {
  let lo = 0, hi = steps.length; // the first step later than ms
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid].t <= ms) lo = mid + 1;
    else hi = mid;
  }
  const s = steps[Math.max(lo - 1, 0)];
  return s ? [s.x, s.y] : [0, 0];
}
