"""`make play`: the terminal game (``catan.console``) with its saves in a folder.

    .venv/bin/python tools/play.py [--saves DIR] [console options]

The game is saved after every action through the device's own store (``firmware/store.py``)
in ``DIR`` (default ``.play_saves/``), in the handheld's record; started again without game
options, the console offers to continue the game in progress.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("firmware", "lib"):
    path = os.path.join(ROOT, sub)
    if path not in sys.path:
        sys.path.insert(0, path)

from catan import console  # lib/
from store import Store  # firmware/


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    folder = os.path.join(ROOT, ".play_saves")
    if "--saves" in argv:
        at = argv.index("--saves")
        if at + 1 >= len(argv):
            raise SystemExit("play: --saves needs a folder\n" + console.USAGE)
        folder = argv[at + 1]
        del argv[at:at + 2]
    os.makedirs(folder, exist_ok=True)
    console.main(argv, store=Store(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
