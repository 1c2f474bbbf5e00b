// worker.js: the game's MicroPython, in a Web Worker so that a long computer move or hint
// (a hard player's step takes a few hundred milliseconds here) never freezes the page.
//
// It loads MicroPython's WebAssembly port and game.bin (the .mpy files the Pico gets, see
// tools/web.py), then runs web/webmain.py's Shell: one round of the device's loop every
// 10 ms, and at once when a key arrives. The changed rectangles of the 4-bit framebuffer
// are expanded here to RGBA through the game's palette and sent to the page (main.js).
//
// Messages from the page:
//   {type: "start", board, saves}     saves: {name: hex record} from localStorage
//   {type: "setaside", id, ok, reason} the answer to a set-aside asked of the page
//   {type: "pin", role, down, t}      t: the event's time (epoch ms, sub-ms precision)
//   {type: "failed", name, reason}    the page could not store record name
//   {type: "exec", id, code}          run Python in the shell's namespace (tests, tools)
//   {type: "stop", id}                finish: answered once every save has been sent
// Messages to the page:
//   {type: "ready", width, height, roles, name, loadMs}
//   {type: "frame", rects: [{x, y, w, h, data}], brightness, busy, roundMs}
//                                     roundMs: the longest round of the loop since the last
//   {type: "save", name, hex}         hex null: remove the record
//   {type: "setaside", id, name, to}  copy record name to name `to`; remove it only once the
//                                     copy is stored (answered with ok or the reason)
//
// Saves at start: a record the store cannot read (empty, cut short, foreign, a bad checksum,
// larger than any record: refused by its length, never parsed) is set aside by the page as
// name.bad (name.bad2, ... when taken, as on the device's flash) before the App starts, and
// reported; if the browser refuses the copy, the record stays and the report says so.
// Two tabs: the saves belong to the first tab's worker (a Web Lock, held while it lives); a
// tab opened while another plays gets none of it: it plays without saving and says so, so
// neither tab's progress is overwritten by the other's behind the player's back.
//   {type: "reply", id, ok, text}     the answer to exec / stop
//   {type: "console", error, text}    a line MicroPython printed (stdout or stderr)
//   {type: "error", text}             the shell failed (a Python traceback)

import { loadMicroPython } from "./micropython.mjs";

const LOOP_MS = 10;  // a round of the loop this often while awake (the device loop's _LOOP_MS)
const SAVES_LOCK = "catan-dice:saves";  // held by the one worker (tab) that may write the saves
const LOCK_WAIT_MS = 1500;  // a board switch's previous worker lets go of it in this time
const SET_ASIDE = /\.bad\d*$/;  // the names of records set aside (never read by the game)
const READONLY = "another tab of this game has the saves open: nothing played in this tab is " +
  "saved (close the other tab, then reload this one)";
const HEAP = 4 * 1024 * 1024;  // initial heap; the port grows it when needed

const epoch = () => performance.timeOrigin + performance.now();
const t0 = epoch();
const since = (t) => Math.max(0, Math.round(t - t0));

let mp = null, M = null, shell = null, frameFn = null, pinFn = null, busyFn = null;
let addr = 0, width = 0, height = 0, stride = 0;
let palette = null;  // Uint8Array of 16 x RGBA
let timer = null, stopped = false;
let roundMs = 0;  // the longest round since the last picture sent
let out = null;  // while an exec runs: the lines it printed
const queue = [];  // pin events waiting for the shell
const asked = new Map();  // id -> resolve: set-asides the page has not answered yet
let nextAsk = 1;

const vm = (async () => {
  const [micropython, bundle] = await Promise.all([
    loadMicroPython({
      heapsize: HEAP, linebuffer: true,
      stdout: (line) => (out ? out.push(line) : postMessage({ type: "console", error: false, text: line })),
      stderr: (line) => (out ? out.push(line) : postMessage({ type: "console", error: true, text: line })),
    }),
    fetch(new URL("game.bin", import.meta.url)).then((r) => {
      if (!r.ok) throw new Error(`game.bin: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  unpackBundle(micropython.FS, new Uint8Array(bundle), "/lib");
  return micropython;
})();

// game.bin: "CDGW", a 4-byte little-endian length, that many bytes of JSON
// ([[path, size], ...]), then the files' bytes in that order.
function unpackBundle(FS, bytes, root) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== "CDGW") throw new Error("game.bin: not a bundle");
  const n = view.getUint32(4, true);
  const index = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  let at = 8 + n;
  for (const [path, size] of index) {
    const full = `${root}/${path}`;
    FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    FS.writeFile(full, bytes.subarray(at, at + size));
    at += size;
  }
}

function fail(e) {
  stopped = true;
  postMessage({ type: "error", text: String((e && e.message) || e) });
}

// The saves' lock: true once this worker holds it (until it ends), false if another tab's
// worker keeps it LOCK_WAIT_MS. Without Web Locks (an old browser), true: as before.
function lockSaves() {
  if (!(self.navigator && navigator.locks)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), LOCK_WAIT_MS);
    navigator.locks.request(SAVES_LOCK, { signal: ctl.signal }, () => {
      clearTimeout(timer);
      resolve(true);
      return new Promise(() => {});  // held while this worker lives
    }).catch(() => resolve(false));  // given up waiting: another tab holds it
  });
}

function askPage(msg) {
  const id = nextAsk++;
  return new Promise((resolve) => {
    asked.set(id, resolve);
    postMessage({ ...msg, id });
  });
}

// Records the game reads, checked before the App starts; the damaged ones set aside by the
// page (copy first, then remove). Returns [records to hand over, problems to report].
async function checkSaves(saves, owner) {
  const limit = mp.globals.get("store").LIMIT;
  const records = {};
  for (const [name, text] of Object.entries(saves)) {
    if (SET_ASIDE.test(name)) continue;
    records[name] = typeof text === "string" && text.length <= 2 * limit ? text : null;
  }
  mp.globals.set("_saves", JSON.stringify(records));
  mp.runPython("_bad = json.dumps(webmain.damaged(json.loads(_saves)))");  // (an expression's value)
  const bad = JSON.parse(mp.globals.get("_bad"));
  const problems = [];
  for (const [name, what] of bad) {
    delete records[name];
    if (!owner) continue;  // another tab's to deal with
    let to = name + ".bad";
    for (let k = 2; to in saves; k++) to = name + ".bad" + k;
    const r = await askPage({ type: "setaside", name, to });
    if (r.ok) {
      saves[to] = "";
      problems.push([name, what]);
    } else {
      problems.push([name, what, `kept where it was, the browser refused its copy (${r.reason})`]);
    }
  }
  return [records, problems];
}

async function start(msg) {
  mp = await vm;
  M = mp._module;
  mp.registerJsModule("webhost", {
    save: (name, hex) => postMessage({ type: "save", name, hex }),
    fill: (n) => Array.from(crypto.getRandomValues(new Uint8Array(n))),
  });
  mp.runPython(`
import sys, json, webhost
sys.path.append("/lib")
import store, webmain
webmain.install_urandom(webhost.fill)
`);
  const owner = await lockSaves();
  const [records, problems] = await checkSaves({ ...(msg.saves || {}) }, owner);
  if (!owner) {
    problems.push(["this tab", "opened while another tab plays",
      "nothing played here is saved (close the other tab, then reload this one)"]);
  }
  mp.globals.set("_board", msg.board);
  mp.globals.set("_saves", JSON.stringify(records));
  mp.globals.set("_problems", JSON.stringify(problems));
  mp.globals.set("_readonly", owner ? "" : READONLY);
  mp.runPython(`
shell = webmain.Shell(_board, json.loads(_saves), webhost, problems=json.loads(_problems))
shell.store.readonly = _readonly or None
del _saves, _problems, _readonly
`);
  shell = mp.globals.get("shell");
  frameFn = shell.frame;
  pinFn = shell.pin;
  busyFn = shell.busy;
  addr = shell.buffer_address();
  width = shell.width;
  height = shell.height;
  stride = (width + 1) >> 1;
  const pal = mp.PyProxy.toJs(shell.palette());
  palette = new Uint8Array(64);
  pal.forEach((rgb, i) => palette.set([rgb >> 16, (rgb >> 8) & 255, rgb & 255, 255], 4 * i));
  postMessage({
    type: "ready", width, height, roles: mp.PyProxy.toJs(mp.runPython("list(shell.roles)")),
    name: mp.runPython("shell.board.NAME"), loadMs: Math.round(epoch() - t0),
  });
  round();
}

// The framebuffer is GS4_HMSB: two pixels a byte, the left one in the high nibble. This
// port exports no view of its memory, so the bytes are read with getValue (signed: & 255).
function rgba(x, y, w, h) {
  const data = new Uint8ClampedArray(w * h * 4);
  let o = 0;
  for (let row = y; row < y + h; row++) {
    const base = addr + row * stride;
    for (let col = x; col < x + w; col++) {
      const b = M.getValue(base + (col >> 1), "i8") & 255;
      const p = 4 * ((col & 1) ? (b & 15) : (b >> 4));
      data[o] = palette[p]; data[o + 1] = palette[p + 1]; data[o + 2] = palette[p + 2]; data[o + 3] = 255;
      o += 4;
    }
  }
  return data;
}

function round() {
  clearTimeout(timer);
  timer = null;
  if (stopped || !shell) return;
  const began = performance.now();
  let next = LOOP_MS;
  try {
    while (queue.length) {
      const e = queue.shift();
      pinFn(e.role, e.down, since(e.t));
    }
    const res = mp.PyProxy.toJs(frameFn(since(epoch())));
    if (res[1]) next = 0;  // the App works ahead: no nap between its slices
    const rects = [], transfer = [];
    for (let i = 2; i + 3 < res.length; i += 4) {
      const [x, y, w, h] = res.slice(i, i + 4);
      const data = rgba(x, y, w, h);
      rects.push({ x, y, w, h, data });
      transfer.push(data.buffer);
    }
    roundMs = Math.max(roundMs, performance.now() - began);
    if (rects.length) {
      postMessage({ type: "frame", rects, brightness: res[0], busy: busyFn(), roundMs }, transfer);
      roundMs = 0;
    }
  } catch (e) {
    fail(e);
    return;
  }
  timer = setTimeout(round, next);
}

function exec(msg) {
  if (shell && !stopped) round();  // keys that came before this message count first
  out = [];
  let ok = true;
  try {
    mp.runPython(msg.code);
  } catch (e) {
    ok = false;
    out.push(String(e.message || e));
  }
  const text = out.join("\n");
  out = null;
  round();  // a picture the code drew goes out before the answer
  postMessage({ type: "reply", id: msg.id, ok, text });
}

onmessage = (ev) => {
  const msg = ev.data;
  if (msg.type === "start") {
    start(msg).catch(fail);
  } else if (msg.type === "pin") {
    queue.push(msg);  // the next round applies it, at its own time: run that round now
    if (shell && !stopped) { clearTimeout(timer); timer = setTimeout(round, 0); }
  } else if (msg.type === "setaside") {
    const resolve = asked.get(msg.id);
    asked.delete(msg.id);
    if (resolve) resolve(msg);
  } else if (msg.type === "failed") {
    if (shell) shell.store.failed(msg.name, msg.reason);
  } else if (msg.type === "exec") {
    vm.then(() => exec(msg)).catch(fail);
  } else if (msg.type === "stop") {
    stopped = true;
    clearTimeout(timer);
    postMessage({ type: "reply", id: msg.id, ok: true, text: "" });
  }
};
