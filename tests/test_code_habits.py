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


# --- issue 31: kinds named once, and no import cycle in games ------------------------------------------

CODE = (*PACKAGES, "benchmarks")
KINDS_LIVE_IN = (ROOT / "games" / "domain" / "event_types.py",)  # and the migrations, and the tests


def _string_kinds(path: Path, root: Path = ROOT) -> list[str]:
    from games.domain.event_types import TYPES

    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        f"{path.relative_to(root)}:{node.lineno} spells {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in TYPES
    ]


def test_an_event_kind_is_spelt_only_by_its_event_type():
    """Readers ask ``isinstance(r.event, CardPlayed)`` or use ``CardPlayed.TYPE``: a kind written as a
    string elsewhere is a reader that went back to rows (issue 31, item 1)."""
    paths = sorted(
        path
        for package in CODE
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and path not in KINDS_LIVE_IN
    )
    assert len(paths) > 50
    assert [line for path in paths for line in _string_kinds(path)] == []


def test_the_kind_check_finds_a_kind_spelt_as_a_string(tmp_path):
    module = tmp_path / "reader.py"
    module.write_text('"""Reads card_played rows."""\nif row.type == "card_played":\n    pass\n', encoding="utf-8")
    assert _string_kinds(module, tmp_path) == ["reader.py:2 spells 'card_played'"]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_imports(path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``path`` imports at module level (``TYPE_CHECKING`` blocks and
    ``try`` bodies count: they run, or a type checker follows them)."""
    found = set()
    for statement in ast.parse(path.read_text(encoding="utf-8"), filename=str(path)).body:
        for node in statement.body if isinstance(statement, ast.If | ast.Try) else [statement]:
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found |= {
                    f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known else node.module
                    for alias in node.names
                }
    return found & known


def _import_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` (module → the modules it imports), or [] when it has none."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module], path[len(path) :] = "open", [module]
        for imported in sorted(graph[module]):
            if state.get(imported) == "open":
                return [*path[path.index(imported) :], imported]
            if imported not in state and (cycle := visit(imported)):
                return cycle
        state[module] = "done"
        path.pop()
        return []

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return []


def _games_graph() -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in (ROOT / "games").rglob("*.py") if "migrations" not in path.parts}
    known = set(paths)
    return {name: _module_imports(path, known) - {name} for name, path in paths.items()}


def test_the_games_package_imports_without_a_cycle():
    """Module-level imports of ``games`` form no cycle (issue 31): selectors import the result type
    from ``games.write.results``, not the unit of work."""
    graph = _games_graph()
    assert len(graph) > 40 and graph["games.read.selectors"]
    assert _import_cycle(graph) == []


def test_the_cycle_search_finds_a_cycle():
    assert _import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _import_cycle({"a": {"b"}, "b": set()}) == []
