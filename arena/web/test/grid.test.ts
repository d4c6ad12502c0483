// The grids' layout as the client computes it (run by npm test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { board, cellAt, keyDirection, open, padButtons, route, splits, toward, walls } from "../src/grid";
import type { MazeGrid } from "../src/protocol";

const base = { id: "x", par: 1, start: [1, 1] as [number, number], goal: [3, 3] as [number, number] };

test("square cells: the links sent open their passages, and no other", () => {
  // 2×2: cell 1's west, cell 2's north and cell 3's west are open (bits 3, 4, 7).
  const b = board({ ...base, layout: "square", w: 2, h: 2, links: btoa(String.fromCharCode(0x98)) })!;
  assert.equal(open(b, 0, "e"), true);
  assert.equal(open(b, 0, "s"), true);
  assert.equal(open(b, 1, "s"), false);
  assert.deepEqual(route(b, 1, 3), [0, 2, 3]);
  assert.equal(walls(b).length, 10); // 8 on the rim, the wall between 1 and 3 from both sides
  assert.equal(cellAt(b, 3, 3), 3);
});

test("a masked square grid leaves its outside out", () => {
  // 2×2 without its top right place: three cells.
  const b = board({ ...base, layout: "square", w: 2, h: 2, mask: btoa(String.fromCharCode(0b1101)), links: btoa("\0") })!;
  assert.equal(b.cells.length, 3);
  assert.equal(cellAt(b, 3, 1), -1);
  assert.equal(toward(b, 0, "e"), -1);
  assert.equal(toward(b, 0, "s"), 1);
});

test("polar rings: in, out and the splits", () => {
  const m: MazeGrid = { ...base, layout: "polar", w: 3, h: 3, rings: [1, 6, 12], links: btoa("\0\0\0\0\0\0") };
  const b = board(m)!;
  assert.equal(b.cells.length, 19);
  assert.equal(toward(b, 7 + 3, "in"), 1 + 1); // in from ring 2's cell 3 is ring 1's cell 1
  assert.equal(toward(b, 1 + 1, "out"), 1 + 6 + 2);
  assert.equal(toward(b, 1 + 1, "out_cw"), 1 + 6 + 3);
  assert.equal(toward(b, 1 + 6 + 11, "cw"), 1 + 6);
  assert.equal(splits(b, 2), true);
  assert.equal(splits(b, 1 + 6), false); // the outer ring
  assert.deepEqual(padButtons(m, b, 2).map((p) => p[0]), ["out", "out_cw", "ccw", "in", "cw"]);
  assert.deepEqual(padButtons(m, b, 8).map((p) => p[0]), ["out", "ccw", "in", "cw"]);
  // Up where the ring splits goes out the way that is open: here only
  // the clockwise one (ring 2's cell 3 linked in, bit 20).
  const split: MazeGrid = { ...m, links: btoa("\0\0\x10\0\0") };
  assert.equal(keyDirection(split, board(split), "ArrowUp", 2), "out_cw");
  assert.equal(keyDirection(m, b, "ArrowUp", 2), "out");
  assert.equal(keyDirection(split, board(split), "KeyQ", 2), "out");
});

test("hex: an even column's diagonals sit half a row higher", () => {
  const b = board({ ...base, layout: "hex", w: 3, h: 3, links: btoa("\0\0\0\0") })!;
  assert.equal(toward(b, 4, "ne"), 5); // (col 1, row 1) → (col 2, row 1)
  assert.equal(toward(b, 3, "ne"), 1); // (col 0, row 1) → (col 1, row 0)
  assert.equal(toward(b, 4, "n"), 1);
});

test("keys go by where they are, not what they type", () => {
  const tiles: MazeGrid = { ...base, layout: "tiles", w: 5, h: 5, rows: [] };
  // An AZERTY keyboard's Z is where QWERTY's W is: its code is KeyW.
  assert.equal(keyDirection(tiles, null, "KeyW", -1), "n");
  assert.equal(keyDirection(tiles, null, "KeyA", -1), "w");
  assert.equal(keyDirection(tiles, null, "KeyZ", -1), undefined);
  assert.equal(keyDirection(tiles, null, "ArrowLeft", -1), "w");
  const hex: MazeGrid = { ...base, layout: "hex", w: 3, h: 3 };
  assert.equal(keyDirection(hex, null, "KeyE", -1), "ne");
  assert.equal(keyDirection(hex, null, "KeyA", -1), "sw");
});

// grids.json is what the server sends of a polar, a hex-heart and a
// square-heart maze, with the passages mazecore made (TestClientGridFixtures
// keeps it current): laid out here, every cell is linked to exactly those,
// each wall stands where no passage is, and the goal is reached.
import fixtures from "./grids.json";

test("the server's mazes laid out as mazecore has them", () => {
  for (const f of fixtures as unknown as { maze: MazeGrid; links: [number, number][]; goal: number }[]) {
    const b = board(f.maze)!;
    const want = new Set(f.links.map(([a, c]) => `${a}-${c}`));
    const have = new Set<string>();
    b.linked.forEach((ns, c) => ns.forEach((n) => { if (c < n) have.add(`${c}-${n}`); }));
    assert.deepEqual([...have].sort(), [...want].sort(), f.maze.layout);
    assert.equal(cellAt(b, f.maze.goal[0], f.maze.goal[1]), f.goal, f.maze.layout);
    const start = cellAt(b, f.maze.start[0], f.maze.start[1]);
    assert.equal(route(b, start, f.goal).at(-1), f.goal);
    assert.ok(walls(b).length > 0);
  }
});
