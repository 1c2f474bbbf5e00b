// mprun.mjs: run one MicroPython script under the official WebAssembly port (32-bit, like
// the RP2040) with honest exit codes, for tests and benchmarks.
//
//   node tools/wasm/mprun.mjs [--heap BYTES] [--mount HOSTDIR[:GUESTDIR]]...
//                             [--steps] [--report-heap] [--strict-heap] script.py [args...]
//
// --heap BYTES    initial GC heap (default 194560 = 190K; a K or M suffix is accepted).
// --mount H[:G]   copy the .py/.mpy/.bin/.json files under host dir H (recursively) into
//                 the in-memory filesystem at G (default /lib) and put G on sys.path.
//                 (The port has no access to the host filesystem, only MEMFS.)
// --steps         stepped run for heap measurements, see below.
// --report-heap   after the run, print one line to stderr:
//                 mprun-heap: {"heap":H,"initial":T0,"peak":T1,"grew":false}
//                 T0, T1: total size of the heap areas at the start and at its largest
//                 (gc.mem_alloc() + gc.mem_free() less the port's growth reserve).
// --strict-heap   treat heap growth as a MemoryError: exit code 1.
//
// The script's own directory (top level only) is copied to /script, which becomes
// sys.path[0] as in the unix port; sys.path is then the mounts, then ".frozen". The
// script runs with execfile() under __name__ == "__main__", sys.argv = [script, args...].
// Exit code: 0 on success, n for sys.exit(n), 1 for an uncaught exception (traceback on
// stderr) or for sys.exit("message") (message on stderr).
//
// Heap: this port never raises MemoryError. Where another port would fail, it adds a new
// heap area ("split heap"), and gc.mem_alloc() + gc.mem_free() (constant until then)
// grows. It also cannot collect garbage while Python code runs (it cannot scan the wasm
// stack): gc.collect() only flags a collection, which runs when control is back in JS.
// So in a plain run, "grew" means the script's live data *plus all its garbage* exceeded
// the heap. For a meaningful measurement use --steps: the script is run with
// __name__ == "__mprun_steps__" (so an `if __name__ == "__main__":` tail does not run) and
// must define a generator function steps(); the runner calls next() on it from JS, one
// unit of work per call, collecting garbage between calls. Growth then means live data
// plus the garbage of one step exceeded the heap: an upper bound of the real need, tight
// when steps are small. Workload convention (runs the same on the unix port):
//
//     def steps():
//         game = setup()
//         while not game.over:
//             game.play_turn()
//             yield
//     if __name__ == "__main__":
//         for _ in steps():
//             pass

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

const COPIED = /\.(py|mpy|bin|json)$/;

function usage(message) {
  say(`mprun: ${message}\n` +
    "usage: node mprun.mjs [--heap BYTES] [--mount HOSTDIR[:GUESTDIR]]... " +
    "[--steps] [--report-heap] [--strict-heap] script.py [args...]\n");
  process.exit(2);
}

function parseSize(text) {
  const m = /^(\d+)([kKmM]?)$/.exec(text || "");
  if (!m) usage(`bad heap size: ${text}`);
  const scale = { "": 1, k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()];
  return parseInt(m[1], 10) * scale;
}

function parseArgs(argv) {
  const opts = { heap: 190 * 1024, mounts: [], reportHeap: false, strictHeap: false, steps: false };
  let i = 0;
  for (; i < argv.length && argv[i].startsWith("--"); i++) {
    const a = argv[i];
    if (a === "--heap") opts.heap = parseSize(argv[++i]);
    else if (a === "--mount") opts.mounts.push(argv[++i] || usage("--mount needs a directory"));
    else if (a === "--report-heap") opts.reportHeap = true;
    else if (a === "--strict-heap") opts.strictHeap = true;
    else if (a === "--steps") opts.steps = true;
    else usage(`unknown option ${a}`);
  }
  if (i >= argv.length) usage("no script given");
  opts.script = argv[i];
  opts.args = argv.slice(i + 1);
  return opts;
}

// Output: the VM hands over one byte at a time; bytes are gathered per line and written
// synchronously (retrying if the pipe is full), so nothing is lost or reordered at exit.
// While `captured` is an array, VM stdout goes there instead (to read mem_info()).
let captured = null;
const pending = { 1: [], 2: [] };

function writeAll(fd, buf) {
  for (let off = 0; off < buf.length;) {
    try {
      off += fs.writeSync(fd, buf, off);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
    }
  }
}

function flush(fd) {
  if (pending[fd].length) writeAll(fd, Buffer.from(pending[fd].splice(0)));
}

function writer(fd) {
  return (bytes) => {
    if (fd === 1 && captured) return captured.push(Buffer.from(bytes));
    for (const b of bytes) pending[fd].push(b);
    if (bytes.includes(10) || pending[fd].length >= 4096) flush(fd);
  };
}

function say(text) {  // the runner's own messages, after the VM's
  flush(1);
  flush(2);
  writeAll(2, Buffer.from(text));
}

// gc.mem_free() in this port includes the room it may still grow into ("max new split"
// in micropython.mem_info()); subtracting it leaves the size of the heap areas.
function growthReserve(mp) {
  captured = [];
  mp.runPython("__import__('micropython').mem_info()");
  const m = /max new split: (\d+)/.exec(Buffer.concat(captured).toString());
  captured = null;
  return m ? parseInt(m[1], 10) : 0;
}

function copyTree(mp, hostDir, guestDir, recursive) {
  mp.FS.mkdirTree(guestDir);
  for (const ent of fs.readdirSync(hostDir, { withFileTypes: true })) {
    const host = path.join(hostDir, ent.name);
    const guest = `${guestDir}/${ent.name}`;
    if (ent.isDirectory()) {
      if (recursive && ent.name !== "__pycache__") copyTree(mp, host, guest, true);
    } else if (COPIED.test(ent.name)) {
      mp.FS.writeFile(guest, fs.readFileSync(host));
    }
  }
}

const opts = parseArgs(process.argv.slice(2));
if (!fs.existsSync(opts.script)) usage(`no such script: ${opts.script}`);

const mp = await loadMicroPython({
  heapsize: opts.heap, linebuffer: false, stdout: writer(1), stderr: writer(2),
});

const guestPath = ["/script"];
copyTree(mp, path.dirname(path.resolve(opts.script)), "/script", false);
for (const spec of opts.mounts) {
  const colon = spec.indexOf(":");
  const host = colon < 0 ? spec : spec.slice(0, colon);
  const guest = colon < 0 ? "/lib" : spec.slice(colon + 1);
  if (!fs.statSync(host, { throwIfNoEntry: false })?.isDirectory()) usage(`not a directory: ${host}`);
  copyTree(mp, host, guest, true);
  guestPath.push(guest);
}
guestPath.push(".frozen");

// The wrapper runs inside the VM so that SystemExit and tracebacks are handled exactly
// as MicroPython sees them. It binds only _mprun_* names in __main__; the script gets
// fresh globals. Heap totals are read from Python: while Python code runs, nothing is
// collected and no heap area is freed, so a reading taken before returning to JS shows
// any growth that happened during the call.
const WRAPPER = `
def _mprun_total():
    import gc
    return gc.mem_alloc() + gc.mem_free()

def _mprun_note():
    global _mprun_hw
    t = _mprun_total()
    if t > _mprun_hw:
        _mprun_hw = t

def _mprun_exit_code(e):
    import sys
    if isinstance(e, SystemExit):
        code = e.args[0] if e.args else None
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 255
        print(code, file=sys.stderr)
        return 1
    sys.print_exception(e, sys.stderr)
    return 1

def _mprun_start(path, argv, syspath, stepped):
    global _mprun_gen
    import sys
    sys.path[:] = syspath
    sys.argv[:] = argv
    g = {"__name__": "__mprun_steps__" if stepped else "__main__", "__file__": path}
    try:
        execfile(path, g)
        if stepped:
            if "steps" not in g:
                raise RuntimeError("mprun --steps: the script defines no steps() generator function")
            _mprun_gen = g["steps"]()
        return 0
    except BaseException as e:
        return _mprun_exit_code(e)
    finally:
        _mprun_note()

def _mprun_step():
    global _mprun_gen
    import gc
    try:
        next(_mprun_gen)
        rc = -1
    except StopIteration:
        rc = 0
    except BaseException as e:
        rc = _mprun_exit_code(e)
    _mprun_note()
    if rc >= 0:
        _mprun_gen = None
    gc.collect()  # only flags a collection: the port runs it once control is back in JS
    return rc

_mprun_gen = None
_mprun_hw = _mprun_initial = _mprun_total()
`;

const scriptGuest = `/script/${path.basename(opts.script)}`;
const startArgs = [scriptGuest, [scriptGuest, ...opts.args], guestPath]
  .map((v) => JSON.stringify(v)).join(", ");  // JSON strings and lists are Python literals
const reserve = growthReserve(mp);
let rc;
try {
  mp.runPython(WRAPPER);
  mp.runPython(`_mprun_rc = _mprun_start(${startArgs}, ${opts.steps ? "True" : "False"})`);
  rc = mp.globals.get("_mprun_rc");
  if (rc === 0 && opts.steps) {
    const step = mp.globals.get("_mprun_step");
    do { rc = step(); } while (rc < 0);  // each call enters the VM from the top level
  }
} catch (e) {
  // Only reached if the wrapper itself fails (e.g. out of memory while printing).
  say(`mprun: ${e.message || e}\n`);
  rc = 1;
}

// The first heap area is a little smaller than --heap (allocation tables), and a new
// area is at least 2 KB, so the areas add up to more than --heap only after growth.
const initial = mp.globals.get("_mprun_initial") - reserve;
const peak = mp.globals.get("_mprun_hw") - reserve;
const grew = peak > opts.heap;
if (opts.reportHeap) {
  const report = { heap: opts.heap, initial, peak, grew };
  say(`mprun-heap: ${JSON.stringify(report)}\n`);
}
if (opts.strictHeap && grew) {
  say(`MemoryError: the heap had to grow beyond its initial ${opts.heap} bytes (mprun --strict-heap)\n`);
  if (rc === 0) rc = 1;
}
flush(1);
flush(2);
process.exitCode = rc;
