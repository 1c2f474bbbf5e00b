"""The inputs from outside the repository (the stock MicroPython v1.28.0 images and its source),
fetched from their official addresses and checked against pinned SHA-256 sums.

    python tools/inputs.py [DIR]   # into build/firmware/ (make firmware); then FIRMWARE_DIR=DIR

The CI workflow runs it, caches DIR, and points .ci/run at it with ``FIRMWARE_DIR`` (on this
project's own CI machine, .ci/run takes the same files from ../shared/firmware/). A file already
in DIR with the pinned sum is not fetched again; a download with another sum is refused and
removed, so a file in DIR is always one of these.
"""

import hashlib
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "firmware"
# (the variable naming it, its name in DIR, its official address, its SHA-256: that of the copy
# in ../shared/firmware/, from which CI's runs on this project's machine are made)
INPUTS = (
    ("PICO_FIRMWARE", "RPI_PICO-v1.28.0.uf2",
     "https://micropython.org/resources/firmware/RPI_PICO-20260406-v1.28.0.uf2",
     "e8b60ebb52112c7a1dac9944837949751e143b94cbf1dd48d8bcc4049b6f4d31"),
    ("PICO_W_FIRMWARE", "RPI_PICO_W-v1.28.0.uf2",
     "https://micropython.org/resources/firmware/RPI_PICO_W-20260406-v1.28.0.uf2",
     "b47265d2afcdfe17107bfaf54f62a80cacbcad91689fe3a57863dc2d6e2867c1"),
    ("MICROPY_SRC", "micropython-v1.28.0-rp2-src.tar.xz",
     "https://micropython.org/resources/source/micropython-1.28.0.tar.xz",
     "f5fa3f6d79df896b4da7b5d1fde90edcb8bb2bd36c55760a78cc660ceb34c32a"),
)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch(out=OUT, opener=urllib.request.urlopen, log=print):
    """Every input in ``out``, fetched unless there with its pinned sum; their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for _var, name, url, want in INPUTS:
        dest = out / name
        if not (dest.is_file() and sha256(dest) == want):
            part = out / (name + ".part")
            log("firmware: fetching %s" % url)
            with opener(url) as src, open(part, "wb") as f:
                for chunk in iter(lambda: src.read(1 << 20), b""):
                    f.write(chunk)
            got = sha256(part)
            if got != want:
                part.unlink()
                raise SystemExit("firmware: %s has SHA-256 %s, not the pinned %s: a changed file "
                                 "at that address; nothing kept (tools/inputs.py)" % (url, got, want))
            part.replace(dest)
        paths.append(dest)
    return paths


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    for p in fetch(Path(argv[0]) if argv else OUT):
        print("firmware: %s (%d bytes, SHA-256 as pinned)" % (p, p.stat().st_size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
