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
