"""Habits the code keeps so that whoever comes next can read it (STYLE.md, issue 12): no module
imports another module's private names — what another module needs is made public under a name
that says what it promises."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "config", "games", "printing", "scoring", "web", "webhooks")


def _modules() -> list[Path]:
    return sorted(
        path for package in PACKAGES for path in (ROOT / package).rglob("*.py") if "migrations" not in path.parts
    )


def _private_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            ours = node.level > 0 or (node.module or "").split(".")[0] in PACKAGES
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name}"
                for alias in node.names
                if ours and alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def test_the_packages_are_found():
    assert len(_modules()) > 50


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_a_private_name_of_another(package):
    found = [
        line for path in _modules() if path.relative_to(ROOT).parts[0] == package for line in _private_imports(path)
    ]

    assert found == []


def test_every_slow_entry_names_a_test_that_exists():
    """support.slow's SLOW names files and single tests by path: a renamed test left there
    would silently come back into `make test-fast` (issue 12's under-a-minute subset)."""
    from support.slow import SLOW

    missing = []
    for entry in SLOW:
        path, _, name = entry.partition("::")
        where = ROOT / path
        if not where.exists() or (name and f"def {name.split('[')[0].split('::')[-1]}(" not in where.read_text()):
            missing.append(entry)
    assert missing == []
