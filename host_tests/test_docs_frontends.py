"""What the README and the Makefile promise a new user, checked (issue 24, point 13)."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_make_test_shows_why_tests_are_skipped():
    """`make test` passes -ra, so pytest lists each skipped test with its reason."""
    proc = subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if "-m pytest" in ln and "host_tests" in ln)
    assert re.search(r"\s-ra(\s|$)", line), line


def test_readme_links_have_no_placeholder_addresses():
    """No link points at a placeholder host or repository: the browser version's address and
    the release's are those tools/release.py derives from its REPOSITORY."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import release

    readme = (ROOT / "README.md").read_text()
    assert "OWNER" not in readme and "/REPO" not in readme and "<owner>" not in readme
    for url in re.findall(r"\]\(([^)\s]+)\)", readme):
        assert "<" not in url, url
    assert readme.count(release.pages_url()) >= 2  # the first line's link, and In a browser
    pages = set(re.findall(r"https://[\w.-]+\.github\.io/[\w.-]+/", readme))
    assert pages == {release.pages_url()}, pages
    latest = "https://github.com/%s/releases/latest" % release.REPOSITORY
    assert latest in readme
    repos = set(re.findall(r"https://github\.com/([\w.-]+/[\w.-]+)/releases", readme))
    assert repos == {release.REPOSITORY}, repos
    # a release's address names this version, twice (the tag and the file)
    version = release.deploy.version()
    for tag, name in re.findall(r"/releases/download/v([\w.]+)/catan-dice-([\d.]+)-", readme):
        assert tag == name == version, (tag, name)


def test_firmware_example_names_carry_no_impossible_date():
    """v1.28.0 was released in 2026: an example file name must not carry a 2025 date."""
    for path in (ROOT / "README.md", ROOT / "Makefile", ROOT / ".ci" / "run"):
        text = path.read_text()
        for date, version in re.findall(r"RPI_PICO-(\d{8})-v(\d+\.\d+\.\d+)", text):
            assert not (version == "1.28.0" and date < "2026"), (path.name, date, version)
    assert "RPI_PICO-<date>-v1.28.0.uf2" in (ROOT / "README.md").read_text()


def test_the_readme_s_layout_names_every_module_the_game_runs():
    """Every file of the rules, the screens, the device's shell and the browser's front end is
    named in the README's "Layout" block (generated fonts as ``font_*.py``), so a newcomer finds
    each where the block says it is."""
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("## Layout"):readme.index("## The map of the code")]
    named = set(re.findall(r"[\w*]+\.\w+", block))
    files = [p for d in ("lib", "firmware", "web") for p in (ROOT / d).rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".md"]
    assert files
    unnamed = [str(p.relative_to(ROOT)) for p in files
               if p.name not in named and not any(Path(p.name).match(n) for n in named if "*" in n)]
    assert not unnamed, "not in the README's Layout block: %s" % ", ".join(sorted(unnamed))
