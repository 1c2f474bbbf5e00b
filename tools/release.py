"""A release: every file a person downloads, written into dist/ (make release).

    python tools/release.py                # dist/ for the version in lib/catan/__init__.py
    python tools/release.py check-tag TAG  # the release workflow's first step: TAG is v<version>

dist/ holds, for version V (``catan.__version__``, its one home):

    catan-dice-V-<board>-rp2040.uf2     the game UF2 of each board (tools/uf2.py), Pico and Pico W
    catan-dice-V-<board>-rp2350.uf2     the same for the Pico 2
    catan-dice-V-<board>-mip.zip        the board's .mpy tree with its package.json (make mip)
    catan-dice-V-<board>-package.json   that package for ``mpremote mip install --target / URL``,
                                        every file fetched from this release's downloads
    mip/                                those files, one download each (a release's files have no
                                        folders: "lib/catan/game.mpy" is "lib.catan.game.mpy")
    catan-dice-V-web.zip                the browser version (make web), for any static web server
    RELEASE_NOTES.md                    CHANGELOG.md's section for V
    SHA256SUMS                          of all the above (``sha256sum -c SHA256SUMS`` in dist/)

Before it builds anything it checks its inputs (a committed tree, ``MICROPY_SRC`` naming
MicroPython v1.28.0, a CHANGELOG section) and stops with one line saying what to do. It builds
into dist.partial/ and renames that to dist/ only once every file is there and every RP2040 UF2
in it has booted to the title on the emulated Pico (host_tests/test_release.py): a dist/ is
always a whole release.

``REPOSITORY`` is where the project lives on GitHub: the release's download addresses and the
browser version's page (GitHub Pages) are derived from it, here and nowhere else.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deploy
import uf2
import web

ROOT = deploy.ROOT
REPOSITORY = "catan-dice/catan-dice"  # owner/name on GitHub
NAME = "catan-dice"
DIST = ROOT / "dist"
PARTIAL = ROOT / "dist.partial"
CHANGELOG = ROOT / "CHANGELOG.md"
NOTES = "RELEASE_NOTES.md"
SUMS = "SHA256SUMS"


class BadInput(RuntimeError):
    """A release cannot be made from what is here; the message says what to do."""


def pages_url():
    """The browser version's address: the repository's GitHub Pages site."""
    owner, name = REPOSITORY.split("/")
    return "https://%s.github.io/%s/" % (owner.lower(), name)


def download_url(version, asset):
    """Where the release of ``version`` serves its file ``asset``."""
    return "https://github.com/%s/releases/download/v%s/%s" % (REPOSITORY, version, asset)


def uf2_name(version, board, chip):
    return "%s-%s-%s-%s.uf2" % (NAME, version, board, chip)


def mip_asset(path):
    """A device path's download name ("lib/catan/game.mpy" -> "lib.catan.game.mpy"); the one
    file that differs between boards, board_config.py, carries the board's name."""
    return path.replace("/", ".")


# -- the checks -----------------------------------------------------------------------------------

def notes(version, changelog=CHANGELOG):
    """CHANGELOG.md's section for ``version`` (its "## [version]" heading up to the next "## ")."""
    text = changelog.read_text() if changelog.is_file() else ""
    out = None
    for line in text.splitlines():
        if line.startswith("## "):
            if out is not None:
                break
            if line.startswith("## [%s]" % version):
                out = []
        elif out is not None:
            out.append(line)
    if not out or not "".join(out).strip():
        raise BadInput("CHANGELOG.md has no section \"## [%s]\": write what changed in it" % version)
    return "\n".join(out).strip() + "\n"


def check_clean(root=ROOT):
    """Raise BadInput unless git says the tree at ``root`` holds nothing uncommitted (a release is
    built from a commit, so that its files can be built again)."""
    proc = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True)
    if proc.returncode:
        raise BadInput("%s is not a git checkout: make release builds from a clone" % root)
    changed = proc.stdout.splitlines()
    if changed:
        raise BadInput("the tree has %d uncommitted change%s (%s): commit or stash them first"
                       % (len(changed), "" if len(changed) == 1 else "s", changed[0].strip()))


def check_inputs(version, root=ROOT):
    """Every check before a release is built; raises BadInput."""
    check_clean(root)
    try:
        uf2.check_toolchain()
        uf2.source()
    except uf2.SourceMissing as e:
        raise BadInput(str(e)) from None
    notes(version)


def check_tag(tag, version, repository=None):
    """The release workflow's first step: the tag pushed names this version, and the repository
    is ``REPOSITORY`` (else the release's addresses would point elsewhere)."""
    if tag != "v" + version:
        raise BadInput("the tag %s is not v%s, the version in lib/catan/__init__.py: tag v%s, or "
                       "bump the version (README, Versions)" % (tag, version, version))
    if repository and repository != REPOSITORY:
        raise BadInput("this repository is %s but tools/release.py's REPOSITORY is %s: set it"
                       % (repository, REPOSITORY))


# -- the files ------------------------------------------------------------------------------------

def add_uf2s(dest, version, build=uf2.build, chips=tuple(sorted(uf2.CHIPS)), boards=None):
    """The game UF2 of every board (or of ``boards``) for each of ``chips``, copied from where
    ``build`` (board, chip) put it; {board: path} of the RP2040 ones."""
    out = {}
    for chip in chips:
        for board in boards or deploy.BOARDS:
            f = dest / uf2_name(version, board, chip)
            shutil.copyfile(build(board, chip), f)
            if chip == "rp2040":
                out[board] = f
    return out


def _zip(folder, dest):
    """``folder``'s files into the zip ``dest``, under a top folder of the zip's own name, in a
    fixed order and with fixed times (the same tree gives the same zip)."""
    top = dest.name[:-len(".zip")]
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                info = zipfile.ZipInfo("%s/%s" % (top, f.relative_to(folder).as_posix()),
                                       (2000, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, f.read_bytes())


def add_mip(dest, version, work, boards=None):
    """Each board's mip package: its zip, and its package.json fetching every file from the
    release (the files in dest/mip/, one copy of those the boards share)."""
    files = dest / "mip"
    files.mkdir()
    for board in boards or deploy.BOARDS:
        tree = deploy.mip_package(board, work / board)
        _zip(tree, dest / ("%s-%s-%s-mip.zip" % (NAME, version, board)))
        urls = []
        for path in sorted(deploy.tree_files(tree)):
            if path == "package.json":
                continue
            asset = mip_asset(path if path != "board_config.py" else "board_config.%s.py" % board)
            data = (tree / path).read_bytes()
            if (files / asset).exists() and (files / asset).read_bytes() != data:
                # one download serves every board: it must be one file
                raise SystemExit("release: %s differs between boards" % path)
            (files / asset).write_bytes(data)
            urls.append([path, download_url(version, asset)])
        package = {"urls": urls, "version": version}
        (dest / ("%s-%s-%s-package.json" % (NAME, version, board))).write_text(
            json.dumps(package, indent=1) + "\n")


def add_web(dest, version, work):
    site = web.build(work / "web", log=lambda *a: None)
    _zip(site, dest / ("%s-%s-web.zip" % (NAME, version)))


def write_sums(dest):
    """SHA256SUMS of every file under ``dest``, in ``sha256sum``'s format."""
    lines = []
    for f in sorted(dest.rglob("*")):
        if f.is_file() and f.name != SUMS:
            lines.append("%s  %s\n" % (hashlib.sha256(f.read_bytes()).hexdigest(),
                                       f.relative_to(dest).as_posix()))
    (dest / SUMS).write_text("".join(lines))


def boot_test(dest):
    """host_tests/test_release.py's boot of every RP2040 UF2 in ``dest`` on the emulated Pico."""
    env = dict(os.environ, RELEASE_DIST=str(dest))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "host_tests" / "test_release.py"), "-k", "boots"],
                          cwd=ROOT, env=env)
    if proc.returncode:
        raise SystemExit("release: a UF2 did not boot to its title on the emulated Pico (above)")


def assemble(dest, version, build, work, boards=None):
    """Every file of the release of ``version`` into ``dest``, the UF2s from ``build`` (board,
    chip); ``work`` is a scratch folder; ``boards``: those alone (the tests')."""
    add_uf2s(dest, version, build, boards=boards)
    add_mip(dest, version, work, boards)
    add_web(dest, version, work)
    (dest / NOTES).write_text(notes(version))
    write_sums(dest)


def release(build=None, log=print):
    """Check the inputs, build every file into dist.partial/, boot its RP2040 UF2s, then make it
    dist/ (a failure on the way leaves no dist.partial/, and dist/ as it was)."""
    version = deploy.version()
    check_inputs(version)
    if PARTIAL.exists():
        shutil.rmtree(PARTIAL)
    try:
        PARTIAL.mkdir()
        work = ROOT / "build" / "release"
        if work.exists():
            shutil.rmtree(work)
        assemble(PARTIAL, version, build or (lambda board, chip: uf2.build(board, chip, log=log)),
                 work)
        boot_test(PARTIAL)
        if DIST.exists():
            shutil.rmtree(DIST)
        PARTIAL.rename(DIST)
    finally:
        if PARTIAL.exists():
            shutil.rmtree(PARTIAL)
    for f in sorted(DIST.iterdir()):
        if f.is_file():
            log("release: dist/%s (%d bytes)" % (f.name, f.stat().st_size))
    log("release: dist/mip/: %d files" % len(list((DIST / "mip").iterdir())))
    return DIST


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd")
    tag = sub.add_parser("check-tag", help="TAG is v<version> and this is REPOSITORY")
    tag.add_argument("tag")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "check-tag":
            check_tag(args.tag, deploy.version(), os.environ.get("GITHUB_REPOSITORY"))
            print("release: %s is the version in lib/catan/__init__.py" % args.tag)
        else:
            release()
    except BadInput as e:
        raise SystemExit("%s: %s" % ("release" if args.cmd else "make release", e)) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
