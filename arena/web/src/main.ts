// Maze Arena's client: signs in through the Embedded App SDK, joins the
// instance's room over a WebSocket, draws the maze and every racer, and
// sends moves (keys, swipes, the pad). The server plays the rules; this
// only shows what it says.
import { DiscordSDK } from "@discord/embedded-app-sdk";
import { PROTOCOL_VERSION } from "./protocol";
import { say, runTime as runTimeIn, type Args, type Words } from "./words";
import { ghostAt } from "./ghost";
import { board, cellAt, centre, keyDirection, outline, padButtons, route, walls as wallsOf, type Board } from "./grid";
import type { AlgorithmChoice, ClientMsg, Direction, Dot, Ghost, GridChoice, MazeGrid as Maze, Refusal, RoomView as Room, ServerMsg } from "./protocol";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const clientId = (document.querySelector('meta[name="client-id"]') as HTMLMetaElement).content;
// Inside Discord the page is on <app>.discordsays.com, whose /.proxy/
// reaches this server.
const base = location.hostname.endsWith(".discordsays.com") ? "/.proxy" : "";
const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

let words: Words = {};
let language = "en";
const t = (id: string, args: Args = {}) => say(words, language, id, args);

// Colour-blind-safe colours (Okabe and Ito) and a shape per racer, so no
// racer is told apart by colour alone; each dot carries its initial too.
const colours = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#FFFFFF"];
const shapes = ["circle", "square", "triangle", "diamond", "hexagon", "star"] as const;
const glyphs: Record<string, string> = { circle: "●", square: "■", triangle: "▲", diamond: "◆", hexagon: "⬢", star: "★" };

let me = "";
let maze: Maze | null = null;
let grid: Board | null = null; // the maze's cells, on any grid but the whole square one
let room: Room | null = null;
let clockOffset = 0; // server's clock minus ours
let myFinish = 0;
const shown = new Map<string, { x: number; y: number; path: [number, number][] }>();
// ghosts are the runs this racer races beside (the day's best, their own),
// and ghostPlaces where each is drawn now.
let ghosts: Ghost[] = [];
let ghostPlaces: [number, number][] = [];

// runTime is a run's time in the words' language: 0:42.3, 0:42,3.
const runTime = (ms: number) => runTimeIn(language, ms);

function status(text: string) {
  $("status").textContent = text;
}

// ---- drawing ----

const canvas = $<HTMLCanvasElement>("maze");
const ctx = canvas.getContext("2d")!;
let cell = 8; // a tile's side, or on another grid a unit of its layout (a cell's side, a ring's depth)

// extent is the maze's size in tiles or units.
const extent = (): [number, number] => (grid ? [grid.width + 2 * margin, grid.height + 2 * margin] : maze ? [maze.w, maze.h] : [1, 1]);
// margin keeps a grid's outer walls, drawn on its edge, inside the canvas.
const margin = 0.25;

function resize() {
  if (!maze) return;
  const box = $("board").getBoundingClientRect();
  const wide = Math.max(120, box.width);
  // A phone held upright: the maze takes the width and most of the height,
  // leaving the pad below it.
  const portrait = window.innerHeight > window.innerWidth;
  const tall = Math.max(120, window.innerHeight * (portrait ? 0.62 : 0.6));
  const [ew, eh] = extent();
  cell = Math.max(3, Math.floor(Math.min(wide / ew, tall / eh)));
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.ceil(ew * cell * dpr);
  canvas.height = Math.ceil(eh * cell * dpr);
  canvas.style.width = `${canvas.width / dpr}px`;
  canvas.style.height = `${canvas.height / dpr}px`;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  dirty = true;
}

// spot is the middle of a place on the wire (a tile, or a cell written
// (2·col+1, 2·row+1)), in pixels.
function spot(x: number, y: number): [number, number] {
  if (!grid) return [(x + 0.5) * cell, (y + 0.5) * cell];
  const c = cellAt(grid, x, y);
  if (c < 0) return [-cell, -cell];
  const [u, v] = centre(grid, c);
  return [(u + margin) * cell, (v + margin) * cell];
}

// drawGrid draws a maze on another grid: the floor of its cells (a
// shape's outside left as the page), then its walls.
function drawGrid(w: CanvasRenderingContext2D, b: Board, css: CSSStyleDeclaration) {
  w.save();
  w.translate(margin * cell, margin * cell);
  w.fillStyle = css.getPropertyValue("--floor");
  if (b.maze.layout === "polar") {
    w.beginPath();
    w.arc((b.width / 2) * cell, (b.height / 2) * cell, (b.width / 2) * cell, 0, 2 * Math.PI);
    w.fill();
  } else {
    w.beginPath();
    for (let c = 0; c < b.cells.length; c++) {
      outline(b, c).forEach(([x, y], i) => (i ? w.lineTo(x * cell, y * cell) : w.moveTo(x * cell, y * cell)));
      w.closePath();
    }
    w.fill();
  }
  w.strokeStyle = css.getPropertyValue("--wall");
  w.lineWidth = Math.max(1, cell / 6);
  w.lineCap = "round";
  w.beginPath();
  for (const wall of wallsOf(b)) {
    if ("r" in wall) {
      w.moveTo(wall.cx * cell + wall.r * cell * Math.cos(wall.a1), wall.cy * cell + wall.r * cell * Math.sin(wall.a1));
      w.arc(wall.cx * cell, wall.cy * cell, wall.r * cell, wall.a1, wall.a2);
    } else {
      w.moveTo(wall.x1 * cell, wall.y1 * cell);
      w.lineTo(wall.x2 * cell, wall.y2 * cell);
    }
  }
  w.stroke();
  w.restore();
}

function shapePath(shape: string, cx: number, cy: number, r: number) {
  ctx.beginPath();
  const poly = (n: number, rot: number, rr = (_: number) => r) => {
    for (let i = 0; i < n; i++) {
      const a = rot + (i * 2 * Math.PI) / n;
      const k = rr(i);
      if (i === 0) ctx.moveTo(cx + k * Math.cos(a), cy + k * Math.sin(a));
      else ctx.lineTo(cx + k * Math.cos(a), cy + k * Math.sin(a));
    }
    ctx.closePath();
  };
  switch (shape) {
    case "square": ctx.rect(cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7); break;
    case "triangle": poly(3, -Math.PI / 2); break;
    case "diamond": poly(4, -Math.PI / 2); break;
    case "hexagon": poly(6, 0); break;
    case "star": poly(10, -Math.PI / 2, (i) => (i % 2 ? r * 0.5 : r)); break;
    default: ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  }
}

// The walls, start and goal are drawn once to an offscreen canvas, and
// again only when the maze, the size or the theme changes; a frame copies
// it and draws the dots over it, and only when something moved.
const walls = document.createElement("canvas");
let wallsFor = "";
let dirty = true;

function drawWalls(css: CSSStyleDeclaration) {
  if (!maze) return;
  const key = `${maze.id}/${cell}/${canvas.width}/${css.getPropertyValue("--wall")}`;
  if (key === wallsFor) return;
  wallsFor = key;
  walls.width = canvas.width;
  walls.height = canvas.height;
  const w = walls.getContext("2d")!;
  const dpr = canvas.width / (extent()[0] * cell);
  w.setTransform(dpr, 0, 0, dpr, 0, 0);
  w.clearRect(0, 0, walls.width, walls.height);
  if (grid) {
    drawGrid(w, grid, css);
  } else {
    w.fillStyle = css.getPropertyValue("--floor");
    w.fillRect(0, 0, maze.w * cell, maze.h * cell);
    w.fillStyle = css.getPropertyValue("--wall");
    (maze.rows ?? []).forEach((row, y) => {
      for (let x = 0; x < row.length; x++) if (row[x] === "#") w.fillRect(x * cell, y * cell, cell, cell);
    });
  }
  // As the pictures mark them: the start a triangle, the goal a target
  // (rings), told apart by shape as well as colour.
  const [sx, sy] = spot(maze.start[0], maze.start[1]), [gx, gy] = spot(maze.goal[0], maze.goal[1]);
  const r = cell * 0.42;
  w.fillStyle = css.getPropertyValue("--start");
  w.beginPath();
  w.moveTo(sx, sy - r);
  w.lineTo(sx + r * 0.87, sy + r * 0.5);
  w.lineTo(sx - r * 0.87, sy + r * 0.5);
  w.closePath();
  w.fill();
  for (const [k, colour] of [[1, "--goal"], [0.62, "--floor"], [0.3, "--goal"]] as const) {
    w.fillStyle = css.getPropertyValue(colour);
    w.beginPath();
    w.arc(gx, gy, r * k, 0, 2 * Math.PI);
    w.fill();
  }
}

function draw() {
  if (!maze) return;
  const css = getComputedStyle(document.documentElement);
  drawWalls(css);
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(walls, 0, 0);
  ctx.restore();
  if (!room) return;
  drawGhosts(css);
  room.players.forEach((p, i) => {
    const at = shown.get(p.id);
    // A watcher has no dot: they are not in the race.
    if (!at || (!p.online && !p.done) || p.watching) return;
    const [cx, cy] = spot(at.x, at.y), r = Math.max(2.5, cell * 0.42);
    shapePath(shapes[i % shapes.length], cx, cy, r);
    ctx.fillStyle = colours[i % colours.length];
    ctx.fill();
    ctx.lineWidth = p.id === me ? Math.max(2, cell / 5) : 1;
    ctx.strokeStyle = p.id === me ? css.getPropertyValue("--fg") : "#000";
    ctx.stroke();
    if (cell >= 12) {
      ctx.fillStyle = "#000";
      ctx.font = `bold ${Math.floor(cell * 0.5)}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(initial(p.name), cx, cy + 1);
      ctx.fillStyle = css.getPropertyValue("--fg");
      ctx.font = `${Math.max(10, Math.floor(cell * 0.45))}px system-ui, sans-serif`;
      ctx.fillText(p.name, cx, cy - cell * 0.75);
    }
  });
}

// drawGhosts draws each ghost faded, a hollow dashed ring under the
// racers' dots, with its label.
function drawGhosts(css: CSSStyleDeclaration) {
  ghosts.forEach((g, i) => {
    const place = ghostPlaces[i];
    if (!place) return;
    const [cx, cy] = spot(place[0], place[1]), r = Math.max(2.5, cell * 0.42);
    ctx.save();
    ctx.globalAlpha = 0.45;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    ctx.fillStyle = css.getPropertyValue("--fg");
    ctx.globalAlpha = 0.25;
    ctx.fill();
    ctx.globalAlpha = 0.7;
    ctx.setLineDash([Math.max(1, r / 3), Math.max(1, r / 4)]);
    ctx.lineWidth = Math.max(1, cell / 8);
    ctx.strokeStyle = css.getPropertyValue("--fg");
    ctx.stroke();
    if (cell >= 12) {
      ctx.globalAlpha = 0.6;
      ctx.fillStyle = css.getPropertyValue("--fg");
      ctx.font = `italic ${Math.max(10, Math.floor(cell * 0.4))}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(g.kind === "own" ? t("you") : g.name, cx, cy + cell * 0.8);
    }
    ctx.restore();
  });
}

// ghostLabel names a ghost in the list: whose run, and its time.
const ghostLabel = (g: Ghost) =>
  g.kind === "own" ? t("ghost_own", { Time: runTime(g.ms) }) : t("ghost_best", { Name: g.name, Time: runTime(g.ms) });

// setGhosts takes the ghosts the server sent, and lists them.
function setGhosts(list: Ghost[]) {
  ghosts = list;
  ghostPlaces = [];
  $("ghosts").replaceChildren(...list.map((g) => {
    const li = document.createElement("li");
    li.dataset.kind = g.kind;
    li.textContent = ghostLabel(g);
    return li;
  }));
  moveGhosts();
  dirty = true;
}

// moveGhosts puts each ghost where its run was at this time of the race
// (at the start before it), on the race's clock; true if one moved.
function moveGhosts(): boolean {
  if (!ghosts.length || !room) return false;
  const racing = (room.phase === "race" || room.phase === "over") && room.start_at;
  const ms = racing ? Date.now() + clockOffset - room.start_at! : 0;
  const items = $("ghosts").children;
  let moved = false;
  ghosts.forEach((g, i) => {
    const [x, y] = ghostAt(g.steps, ms);
    const was = ghostPlaces[i];
    if (was && was[0] === x && was[1] === y) return;
    ghostPlaces[i] = [x, y];
    const li = items[i] as HTMLElement | undefined;
    if (li) Object.assign(li.dataset, { x: String(x), y: String(y) });
    moved = true;
  });
  return moved;
}

const initial = (name: string) => (Array.from(name.trim())[0] ?? "?").toUpperCase();

// path finds the tiles from (x0,y0) to (x1,y1) on the floor: what a
// corridor run walked, to show it walked rather than jumped.
function path(x0: number, y0: number, x1: number, y1: number): [number, number][] {
  if (!maze || (x0 === x1 && y0 === y1)) return [[x1, y1]];
  if (grid) {
    const b = grid;
    return route(b, cellAt(b, x0, y0), cellAt(b, x1, y1)).map((c) => (c < 0 ? [x1, y1] : [2 * b.cells[c][0] + 1, 2 * b.cells[c][1] + 1]));
  }
  const rows = maze.rows ?? [];
  const key = (x: number, y: number) => y * maze!.w + x;
  const prev = new Map<number, number>([[key(x0, y0), -1]]);
  const queue: [number, number][] = [[x0, y0]];
  while (queue.length) {
    const [x, y] = queue.shift()!;
    if (x === x1 && y === y1) break;
    for (const [dx, dy] of [[0, -1], [1, 0], [0, 1], [-1, 0]]) {
      const nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= maze.w || ny >= maze.h || rows[ny][nx] === "#" || prev.has(key(nx, ny))) continue;
      prev.set(key(nx, ny), key(x, y));
      queue.push([nx, ny]);
    }
  }
  const out: [number, number][] = [];
  for (let k = key(x1, y1); k !== -1 && prev.has(k); k = prev.get(k)!) out.unshift([k % maze.w, Math.floor(k / maze.w)]);
  return out.length ? out.slice(1) : [[x1, y1]];
}

function moveTo(id: string, x: number, y: number) {
  const at = shown.get(id);
  if (!at || reduceMotion.matches) {
    shown.set(id, { x, y, path: [] });
    return;
  }
  const last = at.path.length ? at.path[at.path.length - 1] : [at.x, at.y];
  at.path.push(...path(last[0], last[1], x, y));
  // A run shows within maxAnimation: the oldest steps are skipped.
  if (at.path.length > maxSteps) at.path.splice(0, at.path.length - maxSteps);
  dirty = true;
}

// stepMs is a dot's time a tile; a run shows within maxSteps of them
// (150 ms): a 40-tile corridor no longer arrives a second late.
const stepMs = 25;
const maxSteps = 150 / stepMs;

let lastStep = 0;
function frame(now: number) {
  if (now - lastStep > stepMs) {
    lastStep = now;
    for (const at of shown.values()) {
      const next = at.path.shift();
      if (next) {
        [at.x, at.y] = next;
        dirty = true;
      }
    }
  }
  tick();
  if (moveGhosts()) dirty = true;
  if (dirty) {
    dirty = false;
    draw();
  }
  requestAnimationFrame(frame);
}

// ---- the room ----

function tick() {
  const timer = $("timer");
  if (!room) return;
  const now = Date.now() + clockOffset;
  if (room.phase === "countdown" && room.start_at) {
    const left = Math.ceil((room.start_at - now) / 1000);
    status(left > 0 ? t("countdown", { Count: left }) : t("go"));
    timer.textContent = runTime(0);
  } else if (room.phase === "race" || room.phase === "over") {
    timer.textContent = runTime(myFinish || (room.phase === "race" && room.start_at ? now - room.start_at : 0));
  }
}

// setMaze shows a new maze: its layout, and the pad for its grid.
function setMaze(m: Maze) {
  maze = m;
  myFinish = 0; // a rematch's maze: a new race
  setGhosts([]); // the day's runs are no other maze's ghosts; the server sends them again
  grid = board(m);
  document.body.dataset.layout = m.layout;
  shown.clear();
  resize();
  showRoom();
}

// myCell is the cell the member's dot stands on, −1 on the whole
// square grid or when they have none.
function myCell(): number {
  const p = room?.players.find((q) => q.id === me);
  return grid && p ? cellAt(grid, p.x, p.y) : -1;
}

// showPad lays out the pad's buttons for the maze's grid and, on a
// polar one, where the member stands (two ways out where a ring splits).
let padFor = "";
function showPad() {
  if (!maze) return;
  const buttons = padButtons(maze, grid, myCell());
  const key = maze.id + buttons.map((b) => b[0]).join();
  if (key === padFor) return;
  padFor = key;
  $("pad").replaceChildren(...buttons.map(([dir, glyph, col, row]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.id = `pad-${dir}`;
    b.dataset.dir = dir;
    b.textContent = glyph;
    b.style.gridColumn = String(col);
    b.style.gridRow = String(row);
    b.setAttribute("aria-label", t(`dir_${dir}`));
    b.addEventListener("click", () => send({ t: "move", dir }));
    return b;
  }));
}

function showRoom() {
  if (!room || !maze) return;
  dirty = true;
  showPad();
  const mine = room.players.find((p) => p.id === me);
  if (mine?.done && mine.ms) myFinish = mine.ms;
  for (const p of room.players) {
    const at = shown.get(p.id);
    if (!at) shown.set(p.id, { x: p.x, y: p.y, path: [] });
    else if (!at.path.length && (at.x !== p.x || at.y !== p.y)) moveTo(p.id, p.x, p.y);
  }
  document.body.dataset.phase = room.phase;
  const lobby = room.phase === "lobby";
  $("lobby").hidden = !lobby;
  $("picker").hidden = !(lobby && (!room.launcher || room.launcher === me));
  $<HTMLInputElement>("watch").checked = !!mine?.watching;
  const watchers = $("watchers");
  watchers.dataset.count = String(room.watchers);
  watchers.textContent = room.watchers ? t("watchers", { Count: room.watchers }) : "";
  $("maze-name").textContent = `${t("maze")}: ${room.maze}`;
  if (lobby) status(t("lobby"));
  else if (room.phase === "race") status(mine?.done ? t("you_finished", { Time: runTime(mine.ms ?? 0) }) : mine?.racing ? t("race") : t("watching"));
  else if (room.phase === "over") status(t("over"));
  if (room.contest && room.phase !== "lobby") $("status").textContent += " " + t("counts");

  const list = $("players");
  list.replaceChildren(...room.players.map((p, i) => {
    const li = document.createElement("li");
    Object.assign(li.dataset, { id: p.id, x: String(p.x), y: String(p.y), online: String(p.online), done: String(p.done) });
    const glyph = document.createElement("span");
    glyph.className = "glyph";
    glyph.style.color = colours[i % colours.length];
    glyph.textContent = glyphs[shapes[i % shapes.length]];
    glyph.setAttribute("aria-hidden", "true");
    const state = p.done ? runTime(p.ms ?? 0) : !p.online ? t("offline") : p.watching ? t("watcher") : t("racing");
    Object.assign(li.dataset, { watching: String(!!p.watching), racing: String(p.racing) });
    li.append(glyph, `${p.name}${p.id === me ? ` (${t("you")})` : ""} · ${state}`);
    return li;
  }));
  const done = room.players.filter((p) => p.done).sort((a, b) => (a.place ?? 0) - (b.place ?? 0));
  const par = maze.par;
  $("finishes").replaceChildren(...done.map((p) => {
    const li = document.createElement("li");
    li.dataset.id = p.id;
    li.textContent = `${p.name} · ${runTime(p.ms ?? 0)} · ${t("clicks_par", { Clicks: p.clicks, Par: par })}`;
    return li;
  }));
  // The finish screen: the podium, each finisher's time and clicks
  // against par, and Rematch, once the race is over for everyone still
  // there (a racer who left holds the race itself open).
  const over = room.phase === "over" || !!room.rematch;
  $("finish").hidden = !over;
  $("rematch").hidden = !room.rematch;
  if (over) {
    $("podium").replaceChildren(...done.slice(0, 3).map((p) => {
      const li = document.createElement("li");
      li.dataset.id = p.id;
      li.dataset.place = String(p.place ?? 0);
      const name = document.createElement("strong");
      name.textContent = p.name;
      li.append(name, ` ${runTime(p.ms ?? 0)} · ${t("clicks_par", { Clicks: p.clicks, Par: par })}`);
      return li;
    }));
  }
}

// placeDot puts a racer where the room says they stand. A tick's moves
// may repeat the answer to one's own move, or come after a newer answer
// (another connection of the same member): a dot never goes back to an
// older click.
// placeDot puts a dot where d says, unless it says less than the dot
// was already shown (a tick's moves may be older than a member's own
// answer); own: d answers this member's move, or corrects it, and is
// placed whatever it says.
function placeDot(d: Dot, own = false) {
  const p = room?.players.find((q) => q.id === d.id);
  if (p) {
    if (d.clicks < p.clicks && !own) return;
    Object.assign(p, { x: d.x, y: d.y, tiles: d.tiles, clicks: d.clicks });
  }
  moveTo(d.id, d.x, d.y);
}

let socket: WebSocket | null = null;
let retry = 0;

function connect(session: string, locale: string) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}${base}/api/room`);
  socket = ws;
  ws.onopen = () => send({ t: "hello", v: PROTOCOL_VERSION, session, locale }, ws);
  ws.onmessage = (e) => {
    let msg: ServerMsg;
    try {
      msg = JSON.parse(e.data) as ServerMsg;
    } catch (err) {
      status(`${t("refused_error")} (${String(err)})`);
      return;
    }
    // Until the pings have measured it, the room's clock as it came.
    if (msg.t !== "pong" && "now" in msg && bestRtt === Infinity) clockOffset = msg.now - Date.now();
    switch (msg.t) {
      case "pong": {
        // The sample with the shortest round trip wins; the server's
        // clock read halfway through it.
        const rtt = performance.now() - msg.c;
        if (rtt >= 0 && rtt < bestRtt) {
          bestRtt = rtt;
          clockOffset = msg.now + rtt / 2 - Date.now();
        }
        break;
      }
      case "welcome":
        retry = 0;
        fillPicker(msg.algorithms, msg.grids);
        measureClock(ws);
        me = msg.you;
        room = msg.room;
        setMaze(msg.maze);
        break;
      case "maze":
        setMaze(msg.maze);
        break;
      case "room": {
        // The room's own place of this member may be older than the
        // answers they had (on several processes the server answers a
        // move before the room plays it): the answers' stands.
        const mine = room?.players.find((p) => p.id === me);
        const same = room?.maze === msg.room.maze;
        room = msg.room;
        const now = room.players.find((p) => p.id === me);
        if (mine && now && same && mine.clicks > now.clicks) {
          Object.assign(now, { x: mine.x, y: mine.y, tiles: mine.tiles, clicks: mine.clicks });
        }
        showRoom();
        break;
      }
      case "pos":
        // The answer to this client's own move, at once, or where the
        // server found them to stand after all.
        placeDot(msg, true);
        showRoom();
        break;
      case "moves":
        // Every dot that moved in the room's last tick, in one message.
        for (const d of msg.moves) placeDot(d);
        showRoom();
        break;
      case "ghosts":
        setGhosts(msg.ghosts);
        break;
      case "refused":
        status(t(refusalWords[msg.why]));
        break;
      case "reload":
        reloadNeeded = true;
        status(t("reload"));
        break;
    }
  };
  ws.onerror = () => status(t("reconnecting"));
  ws.onclose = (e) => {
    if (socket !== ws) return;
    socket = null;
    if (e.code === 4426 || reloadNeeded) {
      status(t("reload"));
      return;
    }
    if (e.code === 4401 && !signedInAgain) {
      // The session ran out (30 minutes): sign in once more, silently.
      signedInAgain = true;
      status(t("signing_in"));
      signInAgain().catch(showError);
      return;
    }
    if (e.code === 4401 || e.code === 1008) {
      status(t("signin_failed"));
      return;
    }
    status(t("reconnecting"));
    // Jittered: a room's members cut off together do not come back as one.
    const wait = Math.min(5000, 500 * 2 ** retry++);
    setTimeout(() => connect(session, locale), wait / 2 + Math.random() * wait / 2);
  };
}

function send(msg: ClientMsg, ws = socket) {
  if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

// refusalWords names each refusal's words (arena.refused_*): a table, so
// that tsc fails on a refusal the client cannot word.
const refusalWords: Record<Refusal, string> = {
  wall: "refused_wall", not_started: "refused_not_started", finished: "refused_finished", watching: "refused_watching",
  rate: "refused_rate", bad: "refused_bad", not_launcher: "refused_not_launcher", not_over: "refused_not_over", error: "refused_error",
};
let reloadNeeded = false;

// measureClock sends a few pings: the clock offset is taken from the one
// with the shortest round trip, its half compensated.
let bestRtt = Infinity;
function measureClock(ws: WebSocket) {
  bestRtt = Infinity;
  for (let i = 0; i < 5; i++) setTimeout(() => send({ t: "ping", c: performance.now() }, ws), i * 250);
}

// fillPicker offers the server's grids and algorithms, named in the
// member's language, the algorithms that run on the grid chosen; the
// choices made stay.
let algorithmChoices: AlgorithmChoice[] = [];
function fillPicker(algorithms: AlgorithmChoice[], grids: GridChoice[]) {
  algorithmChoices = algorithms;
  const grid = $<HTMLSelectElement>("grid");
  const chosenGrid = grid.value || "square";
  grid.replaceChildren(...grids.map((g) => option(g.id, g.name, g.id === chosenGrid)));
  fillAlgorithms();
}

function fillAlgorithms() {
  const select = $<HTMLSelectElement>("algorithm");
  const grid = $<HTMLSelectElement>("grid").value || "square";
  const chosen = select.value || "backtracking";
  const fits = algorithmChoices.filter((a) => a.grids.includes(grid));
  select.replaceChildren(...fits.map((a) => option(a.id, a.name, a.id === chosen)));
}

function option(value: string, text: string, selected: boolean): HTMLOptionElement {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  o.selected = selected;
  return o;
}

window.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLSelectElement) return;
  // By the key's place (e.code): Z Q S D on an AZERTY keyboard.
  const dir = maze && !e.ctrlKey && !e.metaKey && !e.altKey ? keyDirection(maze, grid, e.code, myCell()) : undefined;
  if (dir) {
    e.preventDefault();
    if (!e.repeat) send({ t: "move", dir });
  } else if (e.key === "Enter" && room?.phase === "lobby" && !(e.target instanceof HTMLButtonElement)) {
    send({ t: "start" });
  }
});

$("start").addEventListener("click", () => send({ t: "start" }));
$("new-maze").addEventListener("click", () =>
  send({ t: "pick", grid: $<HTMLSelectElement>("grid").value, algorithm: $<HTMLSelectElement>("algorithm").value, size: Number($<HTMLSelectElement>("size").value) }));
$("grid").addEventListener("change", fillAlgorithms);
$<HTMLInputElement>("watch").addEventListener("change", (e) => send({ t: "watch", on: (e.target as HTMLInputElement).checked }));
// Anyone still in the room may ask for the rematch; the first ask wins.
$("rematch").addEventListener("click", () => send({ t: "rematch" }));

let touch: { x: number; y: number } | null = null;
canvas.addEventListener("pointerdown", (e) => { touch = { x: e.clientX, y: e.clientY }; });
canvas.addEventListener("pointerup", (e) => {
  if (!touch) return;
  const dx = e.clientX - touch.x, dy = e.clientY - touch.y;
  touch = null;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < 20 || !maze) return;
  let dir: Direction | undefined;
  if (maze.layout === "hex") {
    // The nearest of the six ways, by the swipe's angle.
    const hex: Direction[] = ["se", "s", "sw", "nw", "n", "ne"];
    const a = (Math.atan2(dy, dx) * 180) / Math.PI; // clockwise from east
    dir = hex[Math.floor(((a % 360) + 360) % 360 / 60)];
  } else {
    const code = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "ArrowRight" : "ArrowLeft") : dy > 0 ? "ArrowDown" : "ArrowUp";
    dir = keyDirection(maze, grid, code, myCell());
  }
  if (dir) send({ t: "move", dir });
});
window.addEventListener("resize", () => { resize(); draw(); });

function label() {
  $("title").textContent = t("title");
  document.title = t("title");
  $("start").textContent = t("start");
  $("new-maze").textContent = t("new_maze");
  $("l-watch").textContent = t("watch");
  $("rematch").textContent = t("rematch");
  $("l-algorithm").textContent = t("algorithm");
  $("l-grid").textContent = t("grid");
  $("l-size").textContent = t("size");
  $("h-players").textContent = t("players");
  $("h-finishes").textContent = t("finishes");
  $("h-finish").textContent = t("over");
  $("timer").setAttribute("aria-label", t("timer"));
  canvas.setAttribute("aria-label", t("maze"));
  padFor = "";
  showPad();
}

let signedInAgain = false;
let signInAgain: () => Promise<void> = async () => {};

function showError(err: unknown) {
  status(`${t("signin_failed")} (${err instanceof Error ? err.message : String(err)})`);
}

// signIn trades an authorize code for the access token (the SDK's
// authenticate) and the session token the room takes, with instance.
async function signIn(sdk: DiscordSDK): Promise<{ access_token: string; session: string } | null> {
  const { code } = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  // 503: Discord was rate limiting the exchange, and the code was not
  // spent; try it again after the wait the server names.
  let res: Response;
  for (let tries = 0; ; tries++) {
    res = await fetch(`${base}/api/token`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code, instance: sdk.instanceId }),
    });
    if (res.status !== 503 || tries === 4) break;
    const wait = Math.min(30, Number(res.headers.get("Retry-After")) || 5);
    await new Promise((done) => setTimeout(done, wait * 1000));
  }
  if (!res.ok) return null;
  return await res.json();
}

async function main() {
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  let locale = navigator.language;
  try {
    locale = (await sdk.commands.userSettingsGetLocale()).locale;
  } catch {
    // the member's browser language, then
  }
  const wordsRes = await fetch(`${base}/api/words?locale=${encodeURIComponent(locale)}`);
  if (!wordsRes.ok) throw new Error(`GET /api/words: HTTP ${wordsRes.status}`);
  words = await wordsRes.json();
  language = typeof words.language === "string" ? words.language : "en";
  document.documentElement.lang = language;
  label();
  status(t("signing_in"));
  const signed = await signIn(sdk);
  if (!signed) {
    status(t("signin_failed"));
    return;
  }
  await sdk.commands.authenticate({ access_token: signed.access_token });
  status(t("connecting"));
  connect(signed.session, locale);
  signInAgain = async () => {
    const again = await signIn(sdk);
    if (!again) {
      status(t("signin_failed"));
      return;
    }
    connect(again.session, locale);
  };
  const participants = (n: number) => { $("participants").textContent = `${t("participants")} ${n}`; };
  sdk.commands.getInstanceConnectedParticipants().then((r) => participants(r.participants.length), () => {});
  sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", (e: { participants: unknown[] }) => participants(e.participants.length)).catch(() => {});
  canvas.focus();
}

requestAnimationFrame(frame);
main().catch(showError);
