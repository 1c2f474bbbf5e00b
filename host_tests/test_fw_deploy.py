"""Deployment: `make build` trees for every board, the mip package (`make mip`), and `make flash`
proven against a virtual Pico: the MicroPython unix port behind a pseudo-terminal (socat),
as shared/reference/runtimes.md describes; the flashed tree then boots.

socat is installed by `make setup` (apt-get, when missing and run as root); without it the
flash test fails and says so."""

import re
import os
import shutil
import subprocess
import time
from pathlib import Path

import deploy  # tools/
import mp_runners  # tools/
import pytest

ROOT = Path(__file__).resolve().parents[1]
MP_DIR = Path(__file__).parent / "mp"


@pytest.mark.parametrize("board", deploy.BOARDS)
def test_build_tree_for_each_board(board, tmp_path):
    out = deploy.build(board, tmp_path / board)
    files = deploy.tree_files(out)
    assert (out / "board_config.py").read_text() == 'BOARD = "%s"\n' % board
    assert (out / "main.py").read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()
    assert "lib/boards/%s.mpy" % board in files
    others = [b for b in deploy.BOARDS if b != board]
    assert not any("lib/boards/%s.mpy" % b in files for b in others)
    assert "lib/catan/ui/dio_canvas.mpy" not in files  # desktop only
    for name in ("catan/game", "catan/ui/app", "catan/ui/turn", "app_main", "st7789", "store"):
        assert "lib/%s.mpy" % name in files, name
    for p in files:
        if p.endswith(".mpy"):
            head = (out / p).read_bytes()[:4]
            assert head[0] == ord("M") and head[1] == 6, (p, head)  # mpy version 6
            arch = head[2] >> 2
            assert arch == (4 if p.endswith(("st7789_asm.mpy", "fb_viper.mpy")) else 0), (p, arch)  # armv6m
    assert not [p for p in files if p.endswith(".py") and p not in ("main.py", "board_config.py")]


def _boot(tree):
    # That the tree's files are all there and boot. The heap is the unix port's, a little larger
    # than the Pico's (whose figures come from the real firmware: test_emu_pico.py boots every
    # board's tree on the emulated Pico and Pico W): the 240x240 board's boot outgrew 190wK when
    # the title and the end of a game grew (issue 24).
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(tree / "lib"), str(MP_DIR)]))
    proc = subprocess.run([mp_runners.micropython_exe(), "-X", "heapsize=224wK",
                           str(MP_DIR / "deploy_boot.py")], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.split()[-1:] == ["ALL-OK"], proc.stdout + proc.stderr
    return proc.stdout


def test_built_tree_boots_on_the_virtual_pico(tmp_path):
    tree = deploy.build("waveshare_pico_lcd_13", tmp_path / "tree")
    out = _boot(tree)
    assert "Waveshare" in out and "Title 240 x 240" in out


@pytest.fixture
def virtual_pico(tmp_path):
    """A MicroPython unix port REPL on a pseudo-terminal, its cwd an empty 'flash'."""
    if shutil.which("socat") is None:
        pytest.fail("socat is not installed: run `make setup` as root, or apt-get install socat")
    flash = tmp_path / "flash"
    flash.mkdir()
    link = tmp_path / "ttyMP"
    cmd = ["socat", "PTY,link=%s,raw,echo=0" % link,
           "SYSTEM:cd %s && exec %s,pty,raw,echo=0,stderr" % (flash, mp_runners.micropython_exe())]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if link.exists():
            break
        time.sleep(0.05)
    time.sleep(0.3)  # the REPL's banner
    try:
        yield str(link.resolve()), flash
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_make_flash_copies_only_what_changed_then_the_flashed_tree_boots(virtual_pico, tmp_path):
    port, flash = virtual_pico
    board = deploy.DEFAULT_BOARD
    tree = deploy.build(board, tmp_path / "tree")
    copied = deploy.flash(board, port, reset=False, tree=tree, log=lambda s: None)
    want = deploy.tree_files(tree)
    assert sorted(copied) == sorted(want)
    assert deploy.tree_files(flash) == dict(want, **{deploy.MANIFEST: deploy.tree_files(flash)[
        deploy.MANIFEST]})
    # again: nothing to copy; then one changed file and one gone
    assert deploy.flash(board, port, reset=False, tree=tree, log=lambda s: None) == []
    (tree / "board_config.py").write_text('BOARD = "%s"  # changed\n' % board)
    (tree / "lib" / "smoke_test.mpy").unlink()
    assert deploy.flash(board, port, reset=False, tree=tree, log=lambda s: None) == [
        "board_config.py"]
    assert not (flash / "lib" / "smoke_test.mpy").exists()
    assert "changed" in (flash / "board_config.py").read_text()
    assert "Pimoroni" in _boot(flash)


def test_make_build_as_written():
    proc = subprocess.run(["make", "build", "BOARD=waveshare_pico_lcd_114"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"build/waveshare_pico_lcd_114: \d+ files, \d+ bytes", proc.stdout)
    assert (ROOT / "build" / "waveshare_pico_lcd_114" / "board_config.py").exists()


def test_mip_installs_exactly_the_flash_tree_and_it_boots(virtual_pico, tmp_path):
    # The README's mip line, run for real (mpremote's mip, a local package.json) against the
    # virtual Pico: the same files as `make flash` copies, compiled, and they boot. (The README
    # says --target /, the Pico's root; the virtual Pico's root is its working folder, ".": "/"
    # would be this PC's.)
    port, flash = virtual_pico
    board = deploy.DEFAULT_BOARD
    pkg = deploy.mip_package(board, tmp_path / "mip")
    exe = Path(mp_runners.sys.executable).parent / "mpremote"
    proc = subprocess.run([str(exe), "connect", port, "resume", "mip", "install", "--target", ".",
                           str(pkg / "package.json")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    tree = deploy.build(board, tmp_path / "tree")
    assert deploy.tree_files(flash) == deploy.tree_files(tree)
    assert not [p for p in deploy.tree_files(flash) if p.endswith(".py")
                and p not in ("main.py", "board_config.py")]
    assert "Pimoroni" in _boot(flash)
