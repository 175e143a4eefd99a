"""The documentation: a README that is a front door, a MkDocs site that builds with ``--strict``,
and the repository's own copies of the contract (the rules and the record format) equal to the
club's, so that the repository stands on its own."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SHARED = ROOT.parent / "shared"
CONTRACT = {"RULES.md": "rules.md", "RECORD_FORMAT.md": "record-format.md"}


@pytest.mark.parametrize("shared_name, copy", CONTRACT.items())
def test_the_docs_carry_the_contract_byte_for_byte(shared_name, copy):
    assert (DOCS / copy).is_file(), f"docs/{copy} is missing: the repository must carry its own copy"
    if not (SHARED / shared_name).is_file():
        pytest.skip(f"no {shared_name} beside the repository to compare with")
    assert (DOCS / copy).read_bytes() == (SHARED / shared_name).read_bytes(), (
        f"docs/{copy} differs from ../shared/{shared_name}: copy it again"
    )


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text()

    assert len(readme.splitlines()) <= 250
    for section in ("## Two commands", "## Architecture", "## Layout", "## Tests", "## Documentation"):
        assert section in readme


def test_every_page_the_readme_links_exists():
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\((docs/[^)#]+)", readme)

    assert links
    assert [link for link in links if not (ROOT / link).is_file()] == []


def _nav_pages(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [page for item in node for page in _nav_pages(item)]
    return [page for value in node.values() for page in _nav_pages(value)]


def test_every_page_is_in_the_sites_navigation():
    nav = _nav_pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"])

    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(nav)


def test_the_site_builds_strictly(tmp_path):
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    assert mkdocs, "mkdocs is a dev dependency (pyproject.toml): pip install -e '.[dev]'"

    result = subprocess.run(
        [mkdocs, "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "rules" / "index.html").is_file()


# --- every module the docs name exists (issue 31: docs that stay true) -----------------------------

DOC_PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]  # not the CHANGELOG: it tells history
TOP = "config|games|scoring|webhooks|api|web|printing|benchmarks|tests|docker|locale"
FILE_PATH = re.compile(rf"(?<![\w./-])((?:{TOP})/[\w./-]*\w)")
DOTTED = re.compile(r"`((?:config|games|scoring|webhooks|api|web|printing)(?:\.[A-Za-z_]\w*)+)(?<!\.py)`")  # not a file
NOT_IN_A_CLONE = {"locale/en"}  # named as what is not needed


def ignored_by_git(path: str) -> bool:
    """Files the project makes (the compiled search's stamp, say) are named but not committed."""
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0


def resolves(dotted: str) -> bool:
    """``games.domain.roles.role_of``: the longest importable module, then attributes down to the name."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


@pytest.mark.django_db
@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda page: page.name)
def test_every_file_and_module_a_page_names_exists(page):
    text = page.read_text()
    paths = {m.rstrip(".") for m in FILE_PATH.findall(text)} - NOT_IN_A_CLONE
    missing = sorted(p for p in paths if not (ROOT / p).exists() and not ignored_by_git(p))
    missing += sorted(d for d in set(DOTTED.findall(text)) if not resolves(d))
    assert missing == [], f"{page.name} names what is not in the repository"


# The patches the docs apply to today's code (docs/benchmarks.md and benchmarks/side_by_side.py:
# ``HEAD+benchmarks/patches/no-fast-path.diff``; the README: ``git apply …/oracle-order.diff``).
# The others are a research round's record, made against the commit docs/analysis-rounds.md names.
PATCHES_FOR_TODAY = ("no-fast-path.diff", "oracle-order.diff")


@pytest.mark.parametrize("name", PATCHES_FOR_TODAY)
def test_a_patch_the_docs_apply_to_today_s_code_applies(name):
    done = subprocess.run(
        ["git", "apply", "--check", f"benchmarks/patches/{name}"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
