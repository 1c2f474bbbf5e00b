"""The release (tools/release.py, make release): its checks of the inputs, the files it writes,
and every RP2040 UF2 of it booting to the title on the emulated Pico with the version shown.

The boot test runs on the UF2s the emulator tests build anyway (``pico.firmware_path``: once a
process), staged under the release's names; ``make release`` runs it again on its own dist
(``RELEASE_DIST``), before that becomes dist/. The files' test builds no UF2: its UF2s are
stand-ins, the rest (mip packages, the browser's zip, notes, sums) is built for real.
"""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "emu"))

import deploy  # tools/
import pico  # tools/emu
import release  # tools/
import uf2  # tools/
import web  # tools/
from panel_render import host_render

VERSION = deploy.version()
RELEASE_DIST = os.environ.get("RELEASE_DIST")


# -- the inputs -----------------------------------------------------------------------------------

def _git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd,
                   check=True, capture_output=True)


def test_a_tree_with_anything_uncommitted_is_refused(tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("a = 1\n")
    with pytest.raises(release.BadInput, match="1 uncommitted change .*commit or stash"):
        release.check_clean(tmp_path)  # a new file
    _git(tmp_path, "add", "a.py")
    _git(tmp_path, "commit", "-qm", "a")
    release.check_clean(tmp_path)
    (tmp_path / "a.py").write_text("a = 2\n")
    with pytest.raises(release.BadInput, match="M a.py"):
        release.check_clean(tmp_path)  # a changed one
    with pytest.raises(release.BadInput, match="not a git checkout"):
        release.check_clean(tmp_path.parent)


def test_no_micropython_source_or_another_version_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("MICROPY_SRC", raising=False)
    with pytest.raises(uf2.SourceMissing, match="MICROPY_SRC is not set: point it at"):
        uf2.source()
    (tmp_path / "ports" / "rp2").mkdir(parents=True)
    (tmp_path / "ports" / "rp2" / "Makefile").write_text("")
    (tmp_path / "py").mkdir()
    header = "#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR %d\n" \
             "#define MICROPY_VERSION_MICRO 0\n"
    (tmp_path / "py" / "mpconfig.h").write_text(header % 27)
    with pytest.raises(uf2.SourceMissing, match=r"is MicroPython v1\.27\.0, not v1\.28\.0"):
        uf2.source(tmp_path)
    (tmp_path / "py" / "mpconfig.h").write_text(header % 28)
    assert uf2.source(tmp_path) == (tmp_path.resolve(), None)


def test_the_notes_are_the_changelog_s_section_and_a_version_without_one_is_refused(tmp_path):
    log = tmp_path / "CHANGELOG.md"
    log.write_text("# Changelog\n\n## [0.2.0]\n\nNew.\n\n## [0.1.0]\n\nFirst.\n- one\n")
    assert release.notes("0.1.0", log) == "First.\n- one\n"
    assert release.notes("0.2.0", log) == "New.\n"
    with pytest.raises(release.BadInput, match=r'no section "## \[0.3.0\]"'):
        release.notes("0.3.0", log)
    assert release.notes(VERSION)  # this version's section is there


def test_a_tag_other_than_the_version_fails_the_release_workflow_in_one_line():
    release.check_tag("v" + VERSION, VERSION, release.REPOSITORY)
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "release.py"), "check-tag",
                           "v" + VERSION + ".1"], capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "is not v%s" % VERSION in proc.stderr
    with pytest.raises(release.BadInput, match="REPOSITORY"):
        release.check_tag("v" + VERSION, VERSION, "someone/else")


# -- the files ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def released(tmp_path_factory):
    """A release of two boards assembled in a temporary folder, its UF2s stand-ins (bytes naming
    board and chip)."""
    root = tmp_path_factory.mktemp("release")
    boards = deploy.BOARDS[:2]  # two: the files the boards share are one download
    stand_in = root / "uf2"
    stand_in.mkdir()

    def build(board, chip):
        f = stand_in / ("%s-%s" % (board, chip))
        f.write_bytes(("%s %s" % (board, chip)).encode())
        return f

    dest = root / "dist"
    dest.mkdir()
    release.assemble(dest, VERSION, build, root / "work", boards)
    return dest, boards, root / "work"


def test_a_release_has_a_uf2_for_every_board_and_chip(released):
    dest, boards, _work = released
    for board in boards:
        for chip in uf2.CHIPS:
            f = dest / ("catan-dice-%s-%s-%s.uf2" % (VERSION, board, chip))
            assert f.read_bytes() == ("%s %s" % (board, chip)).encode()


def test_a_release_s_mip_packages_fetch_every_file_of_the_tree_from_the_release(released):
    dest, boards, work = released
    for board in boards:
        tree = work / board
        files = deploy.tree_files(tree)
        with zipfile.ZipFile(dest / ("catan-dice-%s-%s-mip.zip" % (VERSION, board))) as z:
            top = "catan-dice-%s-%s-mip/" % (VERSION, board)
            zipped = {n[len(top):]: z.read(n) for n in z.namelist()}
        assert set(zipped) == set(files) and "package.json" in files
        assert all(zipped[p] == (tree / p).read_bytes() for p in files)
        package = json.loads((dest / ("catan-dice-%s-%s-package.json" % (VERSION, board))).read_text())
        assert package["version"] == VERSION
        base = "https://github.com/%s/releases/download/v%s/" % (release.REPOSITORY, VERSION)
        assert sorted(p for p, _ in package["urls"]) == sorted(set(files) - {"package.json"})
        for path, url in package["urls"]:
            assert url.startswith(base)
            asset = dest / "mip" / url[len(base):]
            assert asset.read_bytes() == (tree / path).read_bytes(), path
    # one download for each file the boards share, one each for what differs
    names = {f.name for f in (dest / "mip").iterdir()}
    assert "board_config.%s.py" % boards[0] in names and "board_config.%s.py" % boards[1] in names
    assert len(names) == len(deploy.tree_files(work / boards[0])) - 1 + 2  # (+ package.json)


def test_a_release_s_browser_zip_is_the_site_make_web_serves(released, tmp_path):
    dest, _boards, _work = released
    site = web.build(tmp_path / "web", log=lambda *a: None)
    with zipfile.ZipFile(dest / ("catan-dice-%s-web.zip" % VERSION)) as z:
        top = "catan-dice-%s-web/" % VERSION
        zipped = {n[len(top):]: z.read(n) for n in z.namelist()}
    want = {f.relative_to(site).as_posix(): f.read_bytes() for f in site.rglob("*") if f.is_file()}
    assert zipped == want and "index.html" in want


def test_a_release_s_sums_check_every_file_and_its_notes_are_the_changelog_s(released):
    dest, _boards, _work = released
    proc = subprocess.run(["sha256sum", "-c", "--strict", release.SUMS], cwd=dest,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summed = {line.split("  ", 1)[1] for line in (dest / release.SUMS).read_text().splitlines()}
    files = {f.relative_to(dest).as_posix() for f in dest.rglob("*") if f.is_file()}
    assert summed == files - {release.SUMS}
    assert (dest / release.NOTES).read_text() == release.notes(VERSION)


def test_a_failed_release_leaves_no_partial_dist_and_the_last_one_as_it_was(tmp_path, monkeypatch):
    monkeypatch.setattr(release, "DIST", tmp_path / "dist")
    monkeypatch.setattr(release, "PARTIAL", tmp_path / "dist.partial")
    monkeypatch.setattr(release, "check_inputs", lambda version: None)
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "old.uf2").write_bytes(b"the last release")

    def fail(dest, version, work, boards):
        assert (tmp_path / "dist.partial").is_dir() and dest == tmp_path / "dist.partial"
        raise SystemExit("web: MicroPython's WebAssembly port is missing")

    monkeypatch.setattr(release, "add_mip", fail)
    stand_in = tmp_path / "stand-in.uf2"
    stand_in.write_bytes(b"uf2")
    with pytest.raises(SystemExit, match="WebAssembly"):
        release.release(build=lambda board, chip: stand_in, log=lambda *a: None)
    assert not (tmp_path / "dist.partial").exists()
    assert [f.name for f in (tmp_path / "dist").iterdir()] == ["old.uf2"]


# -- the RP2040 UF2s on the emulated Pico ---------------------------------------------------------

@pytest.fixture(scope="module")
def release_uf2s(tmp_path_factory):
    """{board: the release's RP2040 UF2, the UF2 it was copied from}: ``RELEASE_DIST``'s, from
    build/uf2/, or else staged from the images the emulator tests build (once a process)."""
    try:
        pico.check_ready("uf2")
    except pico.EmulatorMissing as e:
        pytest.skip("emulated Pico: %s" % e)
    if RELEASE_DIST:
        return {b: (Path(RELEASE_DIST) / release.uf2_name(VERSION, b, "rp2040"), uf2.uf2_path(b))
                for b in deploy.BOARDS}
    built = {}
    staged = release.add_uf2s(tmp_path_factory.mktemp("dist"), VERSION, chips=("rp2040",),
                              build=lambda b, chip: built.setdefault(b, pico.firmware_path("uf2", b)))
    return {b: (staged[b], built[b]) for b in deploy.BOARDS}


@pytest.mark.parametrize("board", deploy.BOARDS)
def test_every_rp2040_uf2_of_the_release_boots_to_the_title_showing_the_version(
        release_uf2s, board, tmp_path, monkeypatch):
    f, image = release_uf2s[board]
    assert f.name == "catan-dice-%s-%s-rp2040.uf2" % (VERSION, board)
    assert f.read_bytes() == image.read_bytes()  # the image built from this tree, byte for byte
    with pico.EmulatedPico(board, firmware="uf2", uf2=f) as p:
        p.boot()
        p.run(300)  # (the battery was measured for the first frame: nothing more is drawn)
        got = p.frame()
        if got != host_render(board):
            p.screenshot(str(tmp_path / "device.png"), 2)
            pytest.fail("the title is not the canvas render of this tree's (device.png in %s)"
                        % tmp_path)
        problem, _files = p.failure()
        assert problem is None, problem
    # ... and the version is on it: the same title with another version differs
    from catan.ui import menus

    monkeypatch.setattr(menus, "__version__", VERSION + "9")
    assert got != host_render(board)
