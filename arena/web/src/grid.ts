// A maze on any grid as the client lays it out: its cells, which of
// them are linked, where each lies and what walls it has. The server
// sends the grid's kind, size, mask and passages (MazeGrid); the cells'
// places follow mazecore's layout, so this file computes them the way
// mazecore/grid.go and play/grid.go do. A place on the wire is (2·col+1,
// 2·row+1); the whole square grid ("tiles") is drawn from its rows.
import type { Direction, MazeGrid } from "./protocol";

export interface Board {
  maze: MazeGrid;
  cells: [number, number][]; // each cell's [col, row], in the grid's order
  slot: Int32Array; // square and hex: place row·w+col → cell or −1; polar: ringStart[row]+col → cell
  ringStart: number[]; // polar: the first cell of each ring
  linked: Set<number>[]; // each cell's linked neighbours
  width: number; // the layout's extent, in units (a cell's side or a ring's depth)
  height: number;
}

const SQRT3 = Math.sqrt(3);

function bits(b64: string | undefined): Uint8Array {
  if (!b64) return new Uint8Array(0);
  const raw = atob(b64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
const bit = (b: Uint8Array, i: number) => ((b[i >> 3] ?? 0) >> (i & 7)) & 1;

// forward are the ways whose passages Links sends, as arena/course.go.
const forward: Record<string, Direction[]> = { square: ["n", "w"], hex: ["n", "ne", "se"], polar: ["in", "cw"] };

// board lays out a maze on a grid of cells; null for the whole square
// grid's tiles.
export function board(maze: MazeGrid): Board | null {
  if (maze.layout === "tiles") return null;
  const b: Board = { maze, cells: [], slot: new Int32Array(0), ringStart: [], linked: [], width: 0, height: 0 };
  if (maze.layout === "polar") {
    const rings = maze.rings ?? [];
    let n = 0;
    for (const [r, len] of rings.entries()) {
      b.ringStart.push(n);
      for (let i = 0; i < len; i++) b.cells.push([i, r]);
      n += len;
    }
    b.slot = Int32Array.from(b.cells.keys());
    b.width = b.height = 2 * rings.length;
  } else {
    const mask = bits(maze.mask);
    b.slot = new Int32Array(maze.w * maze.h).fill(-1);
    for (let r = 0; r < maze.h; r++) {
      for (let q = 0; q < maze.w; q++) {
        if (maze.mask && !bit(mask, r * maze.w + q)) continue;
        b.slot[r * maze.w + q] = b.cells.length;
        b.cells.push([q, r]);
      }
    }
    if (maze.layout === "hex") {
      b.width = 1.5 * maze.w + 0.5;
      b.height = SQRT3 * (maze.h + 0.5);
    } else {
      b.width = maze.w;
      b.height = maze.h;
    }
  }
  b.linked = b.cells.map(() => new Set<number>());
  const links = bits(maze.links);
  const ways = forward[maze.layout] ?? [];
  b.cells.forEach((_, c) => {
    ways.forEach((w, k) => {
      if (!bit(links, c * ways.length + k)) return;
      const n = toward(b, c, w);
      if (n >= 0) {
        b.linked[c].add(n);
        b.linked[n].add(c);
      }
    });
  });
  return b;
}

// at is the cell at a place, or −1.
export function at(b: Board, row: number, col: number): number {
  if (row < 0 || col < 0) return -1;
  if (b.maze.layout === "polar") {
    const rings = b.maze.rings ?? [];
    return row < rings.length && col < rings[row] ? b.ringStart[row] + col : -1;
  }
  return row < b.maze.h && col < b.maze.w ? b.slot[row * b.maze.w + col] : -1;
}

// toward is the cell next to c in direction d, or −1 (play.Toward).
export function toward(b: Board, c: number, d: Direction): number {
  const [q, r] = b.cells[c];
  switch (b.maze.layout) {
    case "square": {
      const delta: Partial<Record<Direction, [number, number]>> = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
      const v = delta[d];
      return v ? at(b, r + v[1], q + v[0]) : -1;
    }
    case "hex": {
      // An even column's diagonal neighbours sit half a row higher.
      const north = q % 2 === 0 ? r - 1 : r, south = q % 2 === 0 ? r : r + 1;
      const place: Partial<Record<Direction, [number, number]>> = {
        n: [r - 1, q], ne: [north, q + 1], se: [south, q + 1], s: [r + 1, q], sw: [south, q - 1], nw: [north, q - 1],
      };
      const p = place[d];
      return p ? at(b, p[0], p[1]) : -1;
    }
    case "polar": {
      if (r === 0) return -1;
      const rings = b.maze.rings ?? [];
      const n = rings[r];
      switch (d) {
        case "in": return at(b, r - 1, Math.floor(q / (n / rings[r - 1])));
        case "cw": return at(b, r, (q + 1) % n);
        case "ccw": return at(b, r, (q + n - 1) % n);
      }
      if (r + 1 >= rings.length) return -1;
      const out = rings[r + 1] / n;
      if (d === "out") return at(b, r + 1, q * out);
      if (d === "out_cw" && out > 1) return at(b, r + 1, q * out + 1);
    }
  }
  return -1;
}

// open tells whether a passage leads from c in direction d.
export function open(b: Board, c: number, d: Direction): boolean {
  const n = toward(b, c, d);
  return n >= 0 && b.linked[c].has(n);
}

// splits tells whether a polar cell has two ways out.
export function splits(b: Board, c: number): boolean {
  const [, r] = b.cells[c];
  const rings = b.maze.rings ?? [];
  return b.maze.layout === "polar" && r > 0 && r + 1 < rings.length && rings[r + 1] > rings[r];
}

// cellAt is the cell of a place on the wire, or −1.
export const cellAt = (b: Board, x: number, y: number) => at(b, (y - 1) / 2, (x - 1) / 2);

// centre is the middle of cell c, in units.
export function centre(b: Board, c: number): [number, number] {
  const [q, r] = b.cells[c];
  switch (b.maze.layout) {
    case "hex":
      return [1 + 1.5 * q, SQRT3 * (r + 0.5 + (q % 2) * 0.5)];
    case "polar": {
      const o = (b.maze.rings ?? []).length;
      if (r === 0) return [o, o];
      const a = ((q + 0.5) * 2 * Math.PI) / (b.maze.rings ?? [])[r];
      return [o + (r + 0.5) * Math.sin(a), o - (r + 0.5) * Math.cos(a)];
    }
  }
  return [q + 0.5, r + 0.5];
}

// A wall: a segment, or an arc of a polar ring (angles as the canvas
// takes them, clockwise from east).
export type Wall = { x1: number; y1: number; x2: number; y2: number } | { cx: number; cy: number; r: number; a1: number; a2: number };

// hexCorner is corner k of a hex cell round (cx, cy), clockwise from east.
const hexCorner = (cx: number, cy: number, k: number): [number, number] => [cx + Math.cos((k * Math.PI) / 3), cy + Math.sin((k * Math.PI) / 3)];
// The corners each side of a hex cell runs between.
const hexSides: [Direction, number, number][] = [["n", 4, 5], ["ne", 5, 0], ["se", 0, 1], ["s", 1, 2], ["sw", 2, 3], ["nw", 3, 4]];

// outline is the floor of a square or hex cell as a polygon, for
// filling (a polar maze's floor is its disc).
export function outline(b: Board, c: number): [number, number][] {
  const [q, r] = b.cells[c];
  switch (b.maze.layout) {
    case "hex": {
      const [cx, cy] = centre(b, c);
      return [0, 1, 2, 3, 4, 5].map((k) => hexCorner(cx, cy, k));
    }
    case "polar":
      return [];
  }
  return [[q, r], [q + 1, r], [q + 1, r + 1], [q, r + 1]];
}

// walls are every wall of the maze, each drawn once or twice (a wall
// between two cells is each's), and the outer rim of a polar maze.
export function walls(b: Board): Wall[] {
  const out: Wall[] = [];
  const rings = b.maze.rings ?? [];
  const o = rings.length;
  b.cells.forEach(([q, r], c) => {
    switch (b.maze.layout) {
      case "square": {
        const sides: [Direction, number, number, number, number][] = [["n", q, r, q + 1, r], ["e", q + 1, r, q + 1, r + 1], ["s", q, r + 1, q + 1, r + 1], ["w", q, r, q, r + 1]];
        for (const [d, x1, y1, x2, y2] of sides) if (!open(b, c, d)) out.push({ x1, y1, x2, y2 });
        break;
      }
      case "hex": {
        const [cx, cy] = centre(b, c);
        for (const [d, k1, k2] of hexSides) {
          if (open(b, c, d)) continue;
          const [x1, y1] = hexCorner(cx, cy, k1), [x2, y2] = hexCorner(cx, cy, k2);
          out.push({ x1, y1, x2, y2 });
        }
        break;
      }
      case "polar": {
        if (r === 0) return;
        const step = (2 * Math.PI) / rings[r];
        const a1 = q * step, a2 = (q + 1) * step;
        if (!open(b, c, "in")) out.push({ cx: o, cy: o, r, a1: a1 - Math.PI / 2, a2: a2 - Math.PI / 2 });
        if (!open(b, c, "cw")) out.push({ x1: o + r * Math.sin(a2), y1: o - r * Math.cos(a2), x2: o + (r + 1) * Math.sin(a2), y2: o - (r + 1) * Math.cos(a2) });
      }
    }
  });
  if (b.maze.layout === "polar") out.push({ cx: o, cy: o, r: o, a1: 0, a2: 2 * Math.PI });
  return out;
}

// route is the cells a run walked from cell a to cell b, b included, a
// not: the maze's one way between them (a breadth-first search).
export function route(b: Board, from: number, to: number): number[] {
  if (from === to || from < 0 || to < 0) return [to];
  const prev = new Map<number, number>([[from, -1]]);
  const queue = [from];
  for (let i = 0; i < queue.length && !prev.has(to); i++) {
    for (const n of b.linked[queue[i]]) {
      if (prev.has(n)) continue;
      prev.set(n, queue[i]);
      queue.push(n);
    }
  }
  if (!prev.has(to)) return [to];
  const out: number[] = [];
  for (let c = to; c !== from; c = prev.get(c)!) out.unshift(c);
  return out;
}

// The keys, by where they are (KeyboardEvent.code), not by what they
// type: an AZERTY keyboard's Z Q S D are where W A S D are on QWERTY.
// Arrows as well; on hex cells Q W E above A S D, as the six ways lie.
const keymaps: Record<string, Record<string, Direction>> = {
  square: { ArrowUp: "n", ArrowRight: "e", ArrowDown: "s", ArrowLeft: "w", KeyW: "n", KeyD: "e", KeyS: "s", KeyA: "w" },
  hex: { ArrowUp: "n", ArrowDown: "s", KeyQ: "nw", KeyW: "n", KeyE: "ne", KeyA: "sw", KeyS: "s", KeyD: "se" },
  // Out is up and in down, as Play's turned window; Q and E the two ways
  // out where a ring splits.
  polar: { ArrowUp: "out", ArrowDown: "in", ArrowLeft: "ccw", ArrowRight: "cw", KeyW: "out", KeyS: "in", KeyA: "ccw", KeyD: "cw", KeyQ: "out", KeyE: "out_cw" },
};

// keyDirection is the direction a key (its code) moves on a maze's
// grid, or undefined. Up on a polar cell that splits takes the way out
// that is open (out, the anticlockwise one, when both are or neither).
export function keyDirection(maze: MazeGrid, b: Board | null, code: string, cell: number): Direction | undefined {
  const map = keymaps[maze.layout === "tiles" ? "square" : maze.layout];
  const d = map?.[code];
  if (d === "out" && b && cell >= 0 && (code === "ArrowUp" || code === "KeyW") && splits(b, cell) && !open(b, cell, "out") && open(b, cell, "out_cw")) return "out_cw";
  return d;
}

// padButtons are the on-screen pad's buttons for a grid, each with its
// glyph and its place in a three-column grid: [direction, glyph, column,
// row].
export function padButtons(maze: MazeGrid, b: Board | null, cell: number): [Direction, string, number, number][] {
  switch (maze.layout) {
    case "hex":
      return [["nw", "◤", 1, 1], ["n", "▲", 2, 1], ["ne", "◥", 3, 1], ["sw", "◣", 1, 2], ["s", "▼", 2, 2], ["se", "◢", 3, 2]];
    case "polar":
      return [
        ...(b && cell >= 0 && splits(b, cell) ? [["out", "◤", 1, 1], ["out_cw", "◥", 3, 1]] as [Direction, string, number, number][] : [["out", "▲", 2, 1]] as [Direction, string, number, number][]),
        ["ccw", "↺", 1, 2], ["in", "▼", 2, 2], ["cw", "↻", 3, 2],
      ];
  }
  return [["n", "▲", 2, 1], ["w", "◀", 1, 2], ["s", "▼", 2, 2], ["e", "▶", 3, 2]];
}
