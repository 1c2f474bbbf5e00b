"""Benchmarks: print figures and merge them into build/bench.json ({"name": number}).

    python tools/bench.py [-k NAME] [--list]      (make bench)

A benchmark is a function decorated with @benchmark that returns {name: number}; it
usually runs a workload script under MicroPython with the helpers below:
run_workload() (checked run, wall time), figures() (numbers the script printed) and
smallest_heap() (the smallest 32-bit heap the script completes in). Benchmarks report,
they never assert on speed or size. build/mpy is brought up to date first.
"""

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_mpy
import mp_runners
from mp_runners import MPY, ROOT
from pico_modules import NOT_FOR_PICO

BENCH_JSON = ROOT / "build" / "bench.json"
SCRATCH = ROOT / "build" / "bench"
MP_DIR = ROOT / "host_tests" / "mp"
BENCHMARKS = []


def benchmark(fn):
    """Register fn (no arguments, returns {name: number}) as a benchmark."""
    BENCHMARKS.append(fn)
    return fn


# ---------------------------------------------------------------- helpers

def script_file(name, text):
    """Write a generated workload script to build/bench/NAME and return its path."""
    SCRATCH.mkdir(parents=True, exist_ok=True)
    path = SCRATCH / name
    path.write_text(text)
    return path


def run_workload(script, runner="unix", mount_dirs=(MPY,), args=()):
    """Run script once (unix: 190wK heap; wasm: 190K initial heap); fail loudly unless
    it exits 0. Returns (CompletedProcess, wall-clock seconds including VM start)."""
    start = time.perf_counter()
    if runner == "unix":
        proc = mp_runners.run_unix(script, path_dirs=mount_dirs, args=args)
    else:
        proc = mp_runners.run_wasm(script, mounts=mount_dirs, args=args)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError("workload failed\n" + mp_runners.describe(proc))
    return proc, seconds


_FIGURE = re.compile(r"^([A-Za-z_][\w.]*)[ :=]+(-?\d+(?:\.\d+)?)$")


def figures(proc):
    """{name: number} from stdout lines such as `core_state_bytes 1234` or `x: 1.5`."""
    out = {}
    for line in proc.stdout.splitlines():
        m = _FIGURE.match(line.strip())
        if m:
            out[m.group(1)] = float(m.group(2)) if "." in m.group(2) else int(m.group(2))
    return out


def smallest_heap(script, mount_dirs=(MPY,), step=256, start=mp_runners.PICO_HEAP_KB * 1024,
                  limit=16 * 1024 * 1024, wasm=True):
    """Smallest heap, in bytes of a 32-bit build, in which `script` completes.

    Returns {"wasm": bytes or None, "unix": bytes}. Each figure comes from a binary search
    (to `step` bytes) over fresh VM runs, starting at `start` and doubling up to `limit`.

    wasm (primary, a real 32-bit build): `mprun.mjs --heap H --steps --report-heap`. This
    port never raises MemoryError; it grows the heap instead, and a run "fits in H" when
    it exits 0 and the heap did not grow. It cannot collect garbage while Python code is
    running (gc.collect() is deferred until control returns to JS), so the script must
    define a generator function steps() that does the work in small units: the runner
    collects between units, and the figure is an upper bound of the real need (live data
    plus the garbage of the largest step), tight when steps are small. A script without
    steps() gets None here (its figure would count all the garbage it ever made) and a
    warning. See tools/wasm/mprun.mjs for the convention.

    unix (cross-check): `micropython -X heapsize=Hw`: a fixed heap with a real GC and a
    real MemoryError. "w" scales H to the 64-bit build's word size, so H is in 32-bit
    terms; word-sized objects scale exactly, byte data (bytes, str, bytearray) does not,
    so for byte-heavy data this figure is lower than the 32-bit truth. The script runs
    plainly (its `if __name__ == "__main__":` tail drives steps()).

    wasm=False skips the wasm search (for workloads whose steps make too much garbage).

    Heap need is not strictly monotonic (fragmentation, GC timing), so the result is the
    boundary the search found, reproducible for a given script and runtime.
    """
    script = Path(script)
    stepped = wasm and "def steps(" in script.read_text()

    def run_unix(heap):
        return mp_runners.run_unix(script, path_dirs=mount_dirs, heap="%dw" % heap)

    def run_wasm(heap):
        return mp_runners.run_wasm(script, mounts=mount_dirs, heap=heap,
                                   options=("--steps", "--report-heap"))

    def fits_wasm(proc):
        report = mp_runners.heap_report(proc)
        return proc.returncode == 0 and report is not None and not report["grew"]

    result = {"unix": _search(run_unix, lambda proc: proc.returncode == 0, step, start, limit)}
    if stepped:
        result["wasm"] = _search(run_wasm, fits_wasm, step, start, limit)
        low, high = sorted((result["wasm"], result["unix"]))
        if high - low > max(low // 4, 8192):
            print("warning: %s: wasm and unix heap figures differ by more than 25%% and 8 KB: %s"
                  % (script.name, result), file=sys.stderr)
    elif wasm:
        result["wasm"] = None
        print("warning: %s defines no steps(): no wasm heap figure (see smallest_heap)"
              % script.name, file=sys.stderr)
    return result


def _search(run, fits, step, start, limit):
    """Smallest heap in (0, limit] for which fits(run(heap)), to `step` bytes."""
    proc = run(limit)
    if not fits(proc):  # fails whatever the heap: report why instead of searching
        raise RuntimeError("the workload fails even with a %d-byte heap\n%s"
                           % (limit, mp_runners.describe(proc)))
    bad, good = 0, start  # invariant: `good` fits, `bad` does not (0 never does)
    while not fits(run(good)):
        bad, good = good, min(good * 2, limit)
    while good - bad > step:
        mid = (good + bad) // 2
        if fits(run(mid)):
            good = mid
        else:
            bad = mid
    return good


# ---------------------------------------------------------------- benchmarks

_EMPTY = """
def steps():
    yield

if __name__ == "__main__":
    for _ in steps():
        pass
"""

_IMPORT_ALL = """
def steps():
    for name in NAMES:
        __import__(name)
        yield

if __name__ == "__main__":
    for _ in steps():
        pass
"""


@benchmark
def vm_baseline():
    """Heap an empty script needs: the VM's own share, to read the other figures against."""
    heap = smallest_heap(script_file("empty.py", _EMPTY))
    return {"vm_baseline_heap_wasm": heap["wasm"], "vm_baseline_heap_unix": heap["unix"]}


@benchmark
def import_all():
    """Heap needed to import every Pico module of lib/ from build/mpy (one per step)."""
    skip = {rel[:-3].replace("/", ".") for rel in NOT_FOR_PICO}
    names = sorted(".".join(p.relative_to(MPY).with_suffix("").parts).replace(".__init__", "")
                   for p in MPY.rglob("*.mpy"))
    names = [n for n in names if n not in skip]
    heap = smallest_heap(script_file("import_all.py", "NAMES = %r\n%s" % (names, _IMPORT_ALL)))
    return {"import_all_heap_wasm": heap["wasm"], "import_all_heap_unix": heap["unix"]}


@benchmark
def players():
    """Computer players (host_tests/mp/work_players.py): one solo game per level and island
    under the unix port, microseconds per decision (mean and worst, this machine; an
    RP2040 is far slower), and the smallest heap the six games complete in (to 4 KB),
    from the unix port only: a decision builds its turn tables in one step, whose
    garbage the wasm port cannot collect, so its figure would not be the need."""
    script = MP_DIR / "work_players.py"
    proc, _ = run_workload(script)
    out = figures(proc)
    out["players_heap_bytes_unix"] = smallest_heap(script, step=4096, wasm=False)["unix"]
    return out


@benchmark
def ui():
    """The app on a 240x135 framebuf canvas (host_tests/mp/work_ui.py): the smallest 32-bit
    heap in which core + screens + the GS4 framebuffer play a whole two-player Island One
    game by keys (wasm port, one key per step; unix cross-check), and, from a solo game
    played by keys with the hard player's choices under the unix port, the mean time to
    handle a key and redraw (this machine) and the bytes a cursor move marks dirty; and the
    unix-port heap of that game with one coach hint asked for."""
    script = MP_DIR / "work_ui.py"
    heap = smallest_heap(script)
    proc, _ = run_workload(script)
    out = figures(proc)
    # The same game with one coach hint: the hint builds its tables in one step, whose
    # garbage the wasm port cannot collect, so this one comes from the unix port only.
    hint = script_file("work_ui_hint.py", "HINT = True\n" + script.read_text())
    hint_heap = smallest_heap(hint, (MPY, MP_DIR), step=1024, wasm=False)["unix"]
    return {"ui_heap_bytes": heap["wasm"], "ui_heap_bytes_unix": heap["unix"],
            "ui_heap_with_hint_bytes_unix": hint_heap,
            "ui_render_ms_per_key": out["ui_render_ms_per_key"],
            "ui_bytes_per_cursor_move": out["ui_bytes_per_cursor_move"]}


@benchmark
def firmware():
    """The device build on the virtual Pico (host_tests/mp/work_fw.py: firmware/app_main.py
    with the real App and flash store, fake pins and SPI, unix port): time from the script's
    start to the first frame (this PC), the smallest heap in which it boots and in which it
    plays a whole game with the buttons (unix port, ``-X heapsize=Nw``: 32-bit words; byte
    data such as the 16 KB framebuffer counts half, so these read low), the SPI bytes a
    cursor move sends, and the size of the deployed tree (build/<default board>/)."""
    import deploy

    dirs = (MPY, ROOT / "firmware", MP_DIR)
    source = (MP_DIR / "work_fw.py").read_text()
    boot = script_file("work_fw_boot.py", 'MODE = "boot"\n' + source)
    game = script_file("work_fw_game.py", 'MODE = "game"\n' + source)
    out = figures(run_workload(boot, mount_dirs=dirs)[0])
    out.update(figures(run_workload(game, mount_dirs=dirs)[0]))
    out["fw_heap_after_boot_bytes"] = smallest_heap(boot, dirs, step=1024, wasm=False)["unix"]
    out["fw_heap_peak_bytes"] = smallest_heap(game, dirs, step=1024, wasm=False)["unix"]
    tree = deploy.build(deploy.DEFAULT_BOARD)
    out["fw_flash_bytes"] = sum(f.stat().st_size for f in tree.rglob("*") if f.is_file())
    out.pop("fw_cursor_moves", None)
    return out


def _device(firmware):
    sys.path.insert(0, str(ROOT / "tools" / "emu"))
    import figures as emu_figures

    out, errors = emu_figures.device(firmware)
    for e in errors:
        print("%serrors: %s" % (emu_figures.PREFIX[firmware], e))
    return out


@benchmark
def rp2040():
    """The device on the stock MicroPython v1.28.0 ``RPI_PICO`` firmware in the emulated RP2040
    (tools/emu/, PICO_FIRMWARE): boot, cursor, roll, redraw, hint and hard-computer times in
    emulated ms, the smallest free heap and largest free block after any key and over whole games
    of computers (tools/emu/figures.py says how each is measured), on the Display Pack (240x135)
    and the Display Pack 2.0 (``..._320x240``); ``rp2040_errors``: the workloads that ended on an
    error (each printed; a path that dies reports -1)."""
    return _device("pico")


@benchmark
def rp2040_uf2():
    """The same figures on the game UF2 (tools/uf2.py, MICROPY_SRC): ``rp2040_uf2_*``."""
    return _device("uf2")


@benchmark
def rp2040_picow():
    """The same figures on the stock ``RPI_PICO_W`` firmware (PICO_W_FIRMWARE): ``rp2040_picow_*``."""
    return _device("picow")


def _selfplay(*args):
    """tools/selfplay.py's JSON report for these arguments (2 worker processes)."""
    import subprocess

    cmd = [sys.executable, str(ROOT / "tools" / "selfplay.py"), *map(str, args)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


HARD_BEFORE = "6d5c8fd"  # the hard player's values before it raced by the table with others


@benchmark
def coach():
    """The coach and the computer players. From the exact solver's saved tables
    (build/solver/island1.npz, `python tools/solver/solve_island1.py`): the optimum and the
    solve time. Self-play on the rules core (tools/selfplay.py, seeds 1..): the device
    coach's mean Island One score over 2,000 games, the hard player's mean turns to 10 VP
    in the Island Two solo race over 2,000 games (the best policy we have, not a proven
    optimum), and its win rate against three easy players in 4-player Island Two over 1,000
    games (seats rotated), and against the hard player before it (two seats each). Under the
    unix port (host_tests/mp/mpt_coach.py): time per hint
    over a game (this PC; an RP2040 is some 30-50 times slower). The table's size: its .mpy.
    And the exact expected score of the coach's policy (tools/solver/evaluate.py, which
    plays every state by the table's values and averages exactly: no simulation noise).
    Island Two's solo race likewise (build/solver/island2.npz, `python
    tools/solver/solve_island2.py`): the exact optimum, the solve's time and peak memory,
    the exact expected turns of playing by race_table.bin (tools/solver/evaluate2.py), the
    device coach's mean turns over 2,000 games, and its hint time (mpt_race.py; with three
    seats, mpt_race_seats.py)."""
    out = {}
    npz = ROOT / "build" / "solver" / "island1.npz"
    if npz.exists():
        import numpy as np

        with np.load(npz) as z:
            out["island1_optimal_expected_score"] = round(float(z["optimum"]), 3)
            if "seconds" in z.files and float(z["seconds"]) >= 0:
                out["solver_seconds"] = round(float(z["seconds"]), 1)
        sys.path.insert(0, str(ROOT / "tools" / "solver"))
        import evaluate

        t0 = time.time()
        exact = evaluate.evaluate(evaluate.table_values(ROOT / "lib/catan/players/coach_table.bin"),
                                  log=None)[1][0, evaluate.EMPTY_SHEET]
        out["coach_island1_exact_expected_score"] = round(float(exact), 3)
        out["coach_island1_exact_seconds"] = round(time.time() - t0, 1)
    else:
        print("coach: no build/solver/island1.npz: run tools/solver/solve_island1.py",
              file=sys.stderr)
    npz2 = ROOT / "build" / "solver" / "island2.npz"
    if npz2.exists():
        import numpy as np

        with np.load(npz2) as z:
            out["island2_optimal_expected_turns"] = round(float(z["optimum"]), 4)
            out["island2_solver_seconds"] = round(float(z["seconds"]), 1)
            if "peak_mb" in z.files:
                out["island2_solver_peak_mb"] = round(float(z["peak_mb"]))
        sys.path.insert(0, str(ROOT / "tools" / "solver"))
        import evaluate2

        t0 = time.time()
        got = evaluate2.evaluate(evaluate2.race_table_values(
            ROOT / "lib/catan/players/race_table.bin"), log=None)
        out["coach_island2_exact_expected_turns"] = round(
            float(-got[evaluate2.dp.EMPTY_GROUP, evaluate2.dp.EMPTY_SHEET]), 4)
        out["coach_island2_exact_seconds"] = round(time.time() - t0, 1)
    else:
        print("coach: no build/solver/island2.npz: run tools/solver/solve_island2.py",
              file=sys.stderr)
    race = _selfplay("--island", 2, "--policy", "coach", "--games", 2000, "--seed", 1)
    out["coach_island2_mean_turns"] = race["turns_to_win"]["mean"]
    one = _selfplay("--island", 1, "--policy", "coach", "--games", 2000, "--seed", 1)
    out["coach_island1_mean_score"] = one["score"]["mean"]
    out["coach_island1_selfplay_seconds"] = one["seconds"]
    solo = _selfplay("--island", 2, "--policy", "hard", "--games", 2000, "--seed", 1)
    out["island2_solo_expected_turns"] = solo["turns_to_win"]["mean"]
    four = _selfplay("--island", 2, "--players", 4, "--policy", "hard,easy,easy,easy",
                     "--games", 1000, "--seed", 1)
    out["island2_hard_vs_easy_win_rate"] = four["win_rate"]["hard"]
    # Two hard players against two of the hard player before it raced by the table in games
    # with other players (the revision HARD_BEFORE): the share of games the two win.
    duel = _selfplay("--island", 2, "--policy", "hard,hard@%s,hard,hard@%s" % (HARD_BEFORE,
                     HARD_BEFORE), "--games", 1000, "--seed", 1)
    out["island2_hard_vs_before_win_rate"] = duel["win_rate"]["hard"]
    proc, _ = run_workload(MP_DIR / "mpt_coach.py")
    out.update(figures(proc))
    proc, _ = run_workload(MP_DIR / "mpt_race.py")
    out.update(figures(proc))
    proc, _ = run_workload(MP_DIR / "mpt_race_seats.py")
    out.update(figures(proc))
    out["race_table_bytes"] = (ROOT / "lib" / "catan" / "players" / "race_table.bin").stat().st_size
    out["coach_table_bytes"] = (ROOT / "lib" / "catan" / "players" / "coach_table.bin").stat().st_size
    return out


@benchmark
def web():
    """The game in a browser (`make web`: build/web/, in headless Chromium through
    tools/web_browser.py). web_bytes and web_bytes_gzip: the site's files, raw and gzipped
    (level 9), what a first visit downloads. web_first_frame_ms: from navigation to the
    first picture on the page's canvas, cold (a fresh browser profile each time; the median
    of three). web_key_ms_mean / _p95: from a key event to the new pixels in the canvas,
    over 60 real key presses on menus and a turn. web_hint_ms: one coach hint in the
    page's VM. web_worker_round_ms_max: the longest round of the game's loop in the worker
    while two hard computers play Island Two (the page is not blocked meanwhile), and
    web_main_longest_task_ms: the page's own longest task then (Long Tasks API: 0 when
    none reached 50 ms)."""
    import statistics

    import web as site
    import web_browser

    why = web_browser.missing()
    if why:
        print("web: " + why, file=sys.stderr)
        return {}
    out_dir = site.build(log=lambda *a: None)
    sizes = site.site_sizes(out_dir)
    out = {"web_bytes": sum(s for s, _ in sizes.values()),
           "web_bytes_gzip": sum(g for _, g in sizes.values())}
    firsts = []
    for _ in range(3):
        with web_browser.WebSession(out_dir) as b:
            firsts.append(b.open("pimoroni_display_pack"))
    out["web_first_frame_ms"] = round(statistics.median(firsts))
    with web_browser.WebSession(out_dir) as b:
        b.open("pimoroni_display_pack", clear=True)
        b.script("cdg.latencies.length = 0")
        b.keys("a")  # New game
        b.keys(*["y"] * 12)
        b.keys(*["x"] * 12)
        b.exec("shell.app.new_game(1, (255,))")
        b.keys("a")  # roll
        b.settle()
        b.keys(*["y"] * 17)
        b.keys(*["x"] * 17)
        b.settle()
        lat = sorted(b.script("return cdg.latencies"))
        out["web_key_ms_mean"] = round(sum(lat) / len(lat), 1)
        out["web_key_ms_p95"] = round(lat[min(len(lat) - 1, int(len(lat) * 0.95))], 1)
        out["web_hint_ms"] = int(b.exec("import time\n_t = time.ticks_ms()\nshell.app.advice()\n"
                                        "print(time.ticks_diff(time.ticks_ms(), _t))"))
        b.open("pimoroni_display_pack", clear=True)
        b.script("""window._long = [];
            new PerformanceObserver((l) => { for (const e of l.getEntries()) window._long.push(e.duration); })
              .observe({ type: "longtask" });
            cdg.maxRoundMs = 0;""")
        b.exec("shell.app.settings.speed = 3\nshell.app.new_game(2, (2, 2))")
        t = time.time()
        while int(b.value("shell.app.game.turns_taken(1)")) < 3 and time.time() - t < 120:
            time.sleep(0.5)
        out["web_worker_round_ms_max"] = round(b.script("return cdg.maxRoundMs"))
        out["web_main_longest_task_ms"] = round(b.script("return Math.max(0, ...window._long)"))
    return out


# ---------------------------------------------------------------- main

@benchmark
def core():
    """The rules core over a full scripted 4-player Island Two game (host_tests/mp/
    work_core.py, core from .mpy): the smallest 32-bit heap it completes in, wasm port
    (one decision per step) as the figure and the unix port as a cross-check, and the
    largest save the game made."""
    script = MP_DIR / "work_core.py"
    heap = smallest_heap(script)
    proc, _ = run_workload(script)
    return {"core_heap_bytes": heap["wasm"], "core_heap_bytes_unix": heap["unix"],
            "core_state_bytes": figures(proc)["core_state_bytes"]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="run only the benchmark of this name, or if none "
                        "has it, the benchmarks whose name contains it")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    args = parser.parse_args(argv)
    # (-k rp2040 is the stock Pico's device benchmark alone, not rp2040_uf2 and rp2040_picow too)
    chosen = [b for b in BENCHMARKS if b.__name__ == args.k] or [
        b for b in BENCHMARKS if args.k in b.__name__]
    if args.list:
        for b in chosen:
            print("%-24s %s" % (b.__name__, (b.__doc__ or "").strip().splitlines()[0]))
        return 0
    build_mpy.build()
    results = json.loads(BENCH_JSON.read_text()) if BENCH_JSON.exists() else {}
    failed = 0
    for bench in chosen:
        start = time.perf_counter()
        try:
            found = bench()
        except Exception as e:  # report, keep going, fail at the end
            print("%s: FAILED: %s" % (bench.__name__, e), file=sys.stderr)
            failed += 1
            continue
        for name, value in sorted(found.items()):
            print("%-32s %s" % (name, value))
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                results[name] = value
        print("  (%s: %.1f s)" % (bench.__name__, time.perf_counter() - start), file=sys.stderr)
    BENCH_JSON.parent.mkdir(parents=True, exist_ok=True)
    BENCH_JSON.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print("wrote %s" % BENCH_JSON.relative_to(ROOT))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
