// A ghost's place at a time of the race (run by npm test), as the server's
// TestGhostReplay checks its own ghostAt.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ghostAt } from "../src/ghost";

const steps = [
  { t: 0, x: 1, y: 1 },
  { t: 990, x: 5, y: 1 },
  { t: 1090, x: 5, y: 7 },
  { t: 1190, x: 9, y: 9 },
];

test("the ghost stands at the last step made by then", () => {
  for (const [ms, want] of [
    [-500, [1, 1]], // a clock behind the race's
    [0, [1, 1]],
    [989, [1, 1]],
    [990, [5, 1]],
    [1089, [5, 1]],
    [1090, [5, 7]],
    [1190, [9, 9]],
    [1_000_000, [9, 9]],
  ] as const) {
    assert.deepEqual(ghostAt(steps, ms), want, `at ${ms} ms`);
  }
});
