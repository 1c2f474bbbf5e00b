"""The GitHub workflows (.github/workflows/): they cannot run here, so they are checked here.

actionlint and zizmor (pinned in requirements-dev.txt) report nothing; every action is pinned to
a commit; every job says what it may do (the workflow itself nothing); and every command a
workflow runs is one of the Makefile's documented targets or one of the few one-liners below,
each with its reason (a build step that exists only in a workflow cannot be tried here).
"""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
BIN = Path(sys.executable).parent
# the commands a workflow may run that are not make targets, and why
ONE_LINERS = {
    # a Debian container has no make, git or python yet: make setup installs the rest
    "apt-get update -qq && apt-get install -y -qq --no-install-recommends ca-certificates git "
    "make python3 python3-venv xz-utils",
    # CI's entry point: the same `make test` as on the project's own machine
    "bash .ci/run",
    # the runner's GitHub CLI attaches dist/'s files (make release's output) to the tag's release
    'gh release create "$GITHUB_REF_NAME" --verify-tag --title "$GITHUB_REF_NAME" '
    "--notes-file dist/RELEASE_NOTES.md $(find dist -type f | sort)",
}


def make_targets():
    """The Makefile's documented targets (a "## what it does" after the name)."""
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z0-9-]+):[^\n]*## ", text, re.M))


def bad_run_lines(workflow, targets):
    """The ``run:`` commands of ``workflow`` (its YAML text) that are neither ``make TARGET...``
    of ``targets`` (with VAR=value arguments) nor one of ONE_LINERS."""
    bad = []
    for job in yaml.safe_load(workflow)["jobs"].values():
        for step in job.get("steps", ()):
            run = step.get("run")
            if run is None or run.strip() in ONE_LINERS:
                continue
            words = shlex.split(run) if "\n" not in run.strip() else []
            named = [w for w in words[1:] if "=" not in w]
            if not (words[:1] == ["make"] and named and set(named) <= targets):
                bad.append(run)
    return bad


def test_there_are_the_three_workflows():
    assert [w.name for w in WORKFLOWS] == ["ci.yml", "pages.yml", "release.yml"]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_a_workflow_runs_only_make_targets_and_documented_one_liners(workflow):
    assert bad_run_lines(workflow.read_text(), make_targets()) == []


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_and_every_job_has_its_own_permissions(workflow):
    text = workflow.read_text()
    uses = re.findall(r"uses: (\S+)", text)
    assert uses and all(re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", u) for u in uses), uses
    data = yaml.safe_load(text)
    assert data["permissions"] == {}  # nothing for the workflow as a whole
    for name, job in data["jobs"].items():
        assert "permissions" in job, name
        assert set(job["permissions"].values()) <= {"read", "write"}, name


def _tool(name, *args):
    proc = subprocess.run([str(BIN / name), *args], cwd=ROOT, capture_output=True, text=True)
    return proc.returncode, (proc.stdout + proc.stderr).strip()


def test_actionlint_reports_nothing():
    assert _tool("actionlint", "-no-color") == (0, "")


def test_zizmor_reports_nothing():
    rc, out = _tool("zizmor", "--offline", "--no-progress", "--format", "plain", ".github/workflows")
    assert rc == 0 and "No findings to report" in out, out


# -- make firmware: the CI workflow's inputs (tools/inputs.py) ------------------------------------

def test_an_input_is_kept_only_with_its_pinned_sum_and_fetched_once(tmp_path, monkeypatch):
    import hashlib
    import io

    sys.path.insert(0, str(ROOT / "tools"))
    import inputs

    served = {"https://example.invalid/a.uf2": b"the image", "https://example.invalid/b.uf2": b"b"}
    asked = []

    def opener(url):
        asked.append(url)
        return io.BytesIO(served[url])

    good = hashlib.sha256(b"the image").hexdigest()
    monkeypatch.setattr(inputs, "INPUTS", (("V", "a.uf2", "https://example.invalid/a.uf2", good),))
    assert inputs.fetch(tmp_path, opener, log=lambda *a: None) == [tmp_path / "a.uf2"]
    assert (tmp_path / "a.uf2").read_bytes() == b"the image"
    inputs.fetch(tmp_path, opener, log=lambda *a: None)
    assert asked == ["https://example.invalid/a.uf2"]  # there with its sum: not fetched again
    monkeypatch.setattr(inputs, "INPUTS", (("V", "b.uf2", "https://example.invalid/b.uf2", good),))
    with pytest.raises(SystemExit, match="not the pinned"):
        inputs.fetch(tmp_path, opener, log=lambda *a: None)
    assert sorted(f.name for f in tmp_path.iterdir()) == ["a.uf2"]  # nothing of b kept


def test_the_pinned_inputs_are_the_files_ci_runs_here_with():
    # .ci/run's names in ../shared/firmware/ are the names make firmware gives them
    sys.path.insert(0, str(ROOT / "tools"))
    import inputs

    run = (ROOT / ".ci" / "run").read_text()
    for var, name, url, digest in inputs.INPUTS:
        assert '%s="${%s:-$SHARED_FW/%s}"' % (var, var, name) in run, var
        assert url.startswith("https://micropython.org/") and re.fullmatch(r"[0-9a-f]{64}", digest)
