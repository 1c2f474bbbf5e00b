// main.js: the page around the handheld. The game runs in worker.js (MicroPython, the
// Pico's own .mpy files); this thread draws what it sends, turns keys and touches into
// button presses, keeps the saves in localStorage and offers the board choice.
//
// window.cdg is a small handle for tests, benchmarks and the curious (see README):
//   cdg.ready             a promise, resolved at the first picture
//   cdg.exec(code)        run Python in the game's VM (resolves to what it printed)
//   cdg.indices()         the screen as one hex digit (palette index) per pixel
//   cdg.latencies         ms from each key or touch to the next picture it caused
//   cdg.firstFrameMs      ms from navigation to the first picture
//   cdg.maxRoundMs        the longest round of the game's loop in the worker (a computer's
//                         move, a hint): the page itself stays responsive meanwhile
//   cdg.errors            problems met (also written to the console)

const STORE_PREFIX = "catan-dice:";  // localStorage keys of the game's records
const BOARD_KEY = "catan-dice-board";  // the board last chosen
const LONG_MS = 600;  // firmware/buttons.py's long press (Shift + key gives it at once)
const BOARDS = JSON.parse(document.getElementById("boards").textContent);
const DEFAULT_BOARD = "pimoroni_display_pack";

const canvas = document.getElementById("screen");
const ctx = canvas.getContext("2d", { alpha: false });
const select = document.getElementById("board");
const statusLine = document.getElementById("status");
const left = document.getElementById("left");
const right = document.getElementById("right");
const help = document.getElementById("help");

const cdg = {
  board: null, latencies: [], errors: [], firstFrameMs: null, frames: 0, busy: false, maxRoundMs: 0,
  ready: null, exec: null, indices: null,
};
window.cdg = cdg;

let worker = null, roles = [], palette = null;
let pendingInput = null;  // time of the last key or touch not yet followed by a picture
let nextId = 1;
const replies = new Map();
const held = new Map();  // what holds each role down: key names and pointer ids
let resolveReady, rejectReady, shown = false;

function say(text, bad) {
  statusLine.textContent = text;
  statusLine.className = bad ? "bad" : "";
  if (bad) {
    cdg.errors.push(text);
    console.error(text);
  }
}

// ------------------------------------------------------------------ saves

function savedRecords() {
  const out = {};
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k.startsWith(STORE_PREFIX)) out[k.slice(STORE_PREFIX.length)] = localStorage.getItem(k);
  }
  return out;
}

function keep(name, hex) {
  try {
    if (hex === null) localStorage.removeItem(STORE_PREFIX + name);
    else localStorage.setItem(STORE_PREFIX + name, hex);
  } catch (e) {
    worker.postMessage({ type: "failed", name, reason: `the browser refused it: ${e.name}` });
    say(`Could not save ${name} in this browser (${e.name}).`, true);
  }
}

// A damaged record set aside (worker.js asks before the game starts): its copy first; the
// record goes only once the copy is stored, never on a refusal (storage full).
function setAside(name, to) {
  try {
    localStorage.setItem(STORE_PREFIX + to, localStorage.getItem(STORE_PREFIX + name) ?? "");
  } catch (e) {
    return { ok: false, reason: e.name };
  }
  localStorage.removeItem(STORE_PREFIX + name);
  return { ok: true };
}

// ------------------------------------------------------------------ the worker

function startBoard(name) {
  if (!BOARDS[name]) name = DEFAULT_BOARD;
  cdg.board = name;
  select.value = name;
  const b = BOARDS[name];
  canvas.width = b.width;
  canvas.height = b.height;
  roles = b.roles;
  buildButtons(b);
  fit();
  shown = false;
  cdg.ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  worker.onmessage = onWorker;
  worker.onerror = (e) => {
    say(`The game could not start: ${e.message || "worker error"}`, true);
    rejectReady(new Error(e.message || "worker error"));
  };
  worker.postMessage({ type: "start", board: name, saves: savedRecords() });
}

function call(msg) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    replies.set(id, { resolve, reject });
    worker.postMessage({ ...msg, id });
  });
}

cdg.exec = (code) => call({ type: "exec", code });

async function switchBoard(name) {
  if (name === cdg.board) return;
  releaseAll();
  localStorage.setItem(BOARD_KEY, name);
  const old = worker;
  await call({ type: "stop" });  // every save it sent is kept before this answer
  old.terminate();
  const url = new URL(location.href);
  url.searchParams.set("board", name);
  history.replaceState(null, "", url);
  startBoard(name);
}

function onWorker(ev) {
  const msg = ev.data;
  if (msg.type === "frame") {
    for (const r of msg.rects) ctx.putImageData(new ImageData(r.data, r.w, r.h), r.x, r.y);
    cdg.frames++;
    cdg.busy = msg.busy;
    cdg.maxRoundMs = Math.max(cdg.maxRoundMs, msg.roundMs);
    const now = performance.now();
    if (pendingInput !== null) {
      cdg.latencies.push(now - pendingInput);
      pendingInput = null;
    }
    if (!shown) {  // the first picture of this board
      shown = true;
      if (cdg.firstFrameMs === null) cdg.firstFrameMs = now;
      say("Saves stay in this browser. Your game carries on from where you left it.");
      resolveReady();
    }
    // the backlight setting: 80 % (the default) and up show the true colours
    const level = Math.max(0.25, Math.min(1, msg.brightness / 800));
    canvas.style.filter = level < 1 ? `brightness(${level})` : "";
  } else if (msg.type === "save") {
    keep(msg.name, msg.hex);
  } else if (msg.type === "setaside") {
    worker.postMessage({ type: "setaside", id: msg.id, ...setAside(msg.name, msg.to) });
  } else if (msg.type === "ready") {
    help.textContent = keyHelp();
  } else if (msg.type === "reply") {
    const r = replies.get(msg.id);
    replies.delete(msg.id);
    if (r) (msg.ok ? r.resolve : r.reject)(msg.ok ? msg.text : new Error(msg.text));
  } else if (msg.type === "console") {
    if (msg.error) say(`MicroPython: ${msg.text}`, true); else console.log(msg.text);
  } else if (msg.type === "error") {
    say(`The game stopped: ${msg.text}`, true);
    rejectReady(new Error(msg.text));
  }
}

cdg.indices = () => {
  // The canvas's pixels as palette indices (tests compare them with docs/screens/).
  if (!palette) palette = BOARDS._palette.map((c) => [c >> 16, (c >> 8) & 255, c & 255]);
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  let s = "";
  for (let i = 0; i < data.length; i += 4) {
    const k = palette.findIndex(([r, g, b]) => r === data[i] && g === data[i + 1] && b === data[i + 2]);
    s += k < 0 ? "?" : k.toString(16);
  }
  return s;
};

// ------------------------------------------------------------------ buttons

function press(role, down, source, t) {
  if (!roles.includes(role)) return;
  const holders = held.get(role) || new Set();
  const was = holders.size > 0;
  if (down) holders.add(source); else holders.delete(source);
  held.set(role, holders);
  const now = holders.size > 0;
  const el = document.querySelector(`[data-role="${role}"]`);
  if (el) el.classList.toggle("held", now);
  if (now === was) return;  // another key or finger holds it too
  pendingInput = t;
  worker.postMessage({ type: "pin", role, down: now, t: performance.timeOrigin + t });
}

function releaseAll() {
  for (const [role, holders] of held) {
    if (holders.size) {
      holders.clear();
      press(role, false, null, performance.now());
    }
  }
}

// A tap of Shift + key: a long press, held for LONG_MS + a little, as on the device.
function longPress(role) {
  const src = "shift-" + role;
  press(role, true, src, performance.now());
  setTimeout(() => press(role, false, src, performance.now()), LONG_MS + 60);
}

function keyRole(e) {
  const joy = roles.includes("up");
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if ("abxy".includes(k) && k.length === 1) return k;
  const arrows = joy
    ? { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", Enter: "press", " ": "press" }
    : { ArrowUp: "x", ArrowLeft: "x", ArrowDown: "y", ArrowRight: "y", Enter: "a", " ": "a" };
  if (k in arrows) return arrows[k];
  if (k === "Escape" || k === "Backspace") return "b";
  return null;
}

// A phone or tablet: its primary pointer is a finger, and there may be no keyboard at all.
function touchDevice() {
  return window.matchMedia("(pointer: coarse)").matches;
}

function keyHelp() {
  const joy = roles.includes("up");
  if (touchDevice()) {
    return "Touch the buttons around the screen. Hold one 0.6\u00a0s for a long press: " +
      (roles.includes("y") ? "hold Y for a hint, X for the scores, B for the menu."
        : "hold the stick's press for a hint, B for the menu.");
  }
  return "Keys: " + roles.filter((r) => r.length === 1).map((r) => r.toUpperCase() + "=" + r).join(" ") +
    (joy ? ", arrows = joystick, Enter or space = its press" : ", arrows = X/Y, Enter = A") +
    ", Esc = B. Hold a key 0.6 s (or Shift + key) for a long press: " +
    (roles.includes("y") ? "hold Y for a hint, X for the scores." : "hold the stick's press for a hint.");
}

addEventListener("keydown", (e) => {
  if (e.target === select || e.ctrlKey || e.metaKey || e.altKey) return;
  const role = keyRole(e);
  if (!role || !roles.includes(role)) return;
  e.preventDefault();
  if (e.repeat) return;  // the buttons module repeats by itself
  if (e.shiftKey && ["a", "b", "x", "y", "press"].includes(role)) longPress(role);
  else press(role, true, "key-" + e.code, e.timeStamp);
});
addEventListener("keyup", (e) => {
  const role = keyRole(e);
  if (role) press(role, false, "key-" + e.code, e.timeStamp);
});
addEventListener("blur", releaseAll);

function button(role, label, cls) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = "key " + (cls || "");
  el.dataset.role = role;
  el.textContent = label;
  el.setAttribute("aria-label", role.length === 1 ? `button ${role.toUpperCase()}` : `joystick ${role}`);
  el.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    press(role, true, "pointer-" + e.pointerId, e.timeStamp);
  });
  const up = (e) => press(role, false, "pointer-" + e.pointerId, e.timeStamp);
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", up);
  el.addEventListener("contextmenu", (e) => e.preventDefault());
  return el;
}

// Where the handheld has its buttons: a joystick on the left and the letter keys on the
// right (Waveshare); A and B left of the screen, X and Y right of it (Pimoroni).
function buildButtons(b) {
  left.replaceChildren();
  right.replaceChildren();
  if (b.roles.includes("up")) {
    const pad = document.createElement("div");
    pad.className = "pad";
    for (const [role, label] of [["up", "\u25B2"], ["left", "\u25C0"], ["press", "\u25CF"], ["right", "\u25B6"], ["down", "\u25BC"]]) {
      pad.append(button(role, label, "joy " + role));
    }
    left.append(pad);
    for (const r of ["x", "y", "a", "b"]) if (b.roles.includes(r)) right.append(button(r, r.toUpperCase()));
  } else {
    for (const r of ["a", "b"]) left.append(button(r, r.toUpperCase()));
    for (const r of ["x", "y"]) right.append(button(r, r.toUpperCase()));
  }
}

// ------------------------------------------------------------------ crisp scaling

// The largest whole number of device pixels per game pixel that fits: every game pixel is
// the same size, and image-rendering: pixelated keeps its edges sharp. The room is measured:
// the page's width less the device's padding and the screen's frame, and beside the screen
// (on a wide page) the two columns of buttons; on a narrow page (a phone) the buttons go
// below the screen and the screen takes the whole width, at the largest factor that fits,
// whole or not: at 2 or more device pixels a CSS pixel a game pixel one device pixel wider
// than its neighbour hardly shows, while whole ones left a phone's 390 px at 4 device pixels
// a game pixel, 320 px wide, the text 9 CSS px high.
function fit() {
  const dpr = window.devicePixelRatio || 1;
  const narrow = window.matchMedia("(max-width: 34rem)").matches;  // buttons below the screen
  const device = document.getElementById("device");
  const px = (el, ...props) => props.reduce((n, p) => n + (parseFloat(getComputedStyle(el)[p]) || 0), 0);
  const frame = px(canvas, "borderLeftWidth", "borderRightWidth");
  let room = device.parentElement.clientWidth - px(device, "paddingLeft", "paddingRight") - frame;
  if (!narrow) room -= left.offsetWidth + right.offsetWidth + 2 * px(device, "columnGap");
  const tall = window.innerHeight - (narrow ? 200 : 240);  // the title above, the help below
  const most = Math.min(room / canvas.width, tall / canvas.height) * dpr;
  const k = Math.max(1, narrow && dpr >= 2 ? most : Math.floor(most + 1e-6));
  canvas.style.width = `${(canvas.width * k) / dpr}px`;
  canvas.style.height = `${(canvas.height * k) / dpr}px`;
}
addEventListener("resize", fit);

// ------------------------------------------------------------------ start

for (const [name, b] of Object.entries(BOARDS)) {
  if (name.startsWith("_")) continue;
  const opt = document.createElement("option");
  opt.value = name;
  opt.textContent = b.title;
  select.append(opt);
}
select.addEventListener("change", () => {
  select.blur();  // the arrow keys play again, instead of changing the board
  switchBoard(select.value);
});
addEventListener("error", (e) => cdg.errors.push(String(e.message)));
startBoard(new URLSearchParams(location.search).get("board") || localStorage.getItem(BOARD_KEY) || DEFAULT_BOARD);
