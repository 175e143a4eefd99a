"""The import graph of ``games``: no cycle among its modules' module-level imports (issue 31).

What Python runs when a module is first imported is where a cycle bites (a name not yet defined
in a half-imported module), so an import inside a function or under ``if TYPE_CHECKING:`` is not
an edge. The write path has none left (``games.write.commands`` imports ``live`` and
``selectors`` at the top since ``CommandResult`` lives in the leaf ``games.write.results``).

The graph is read from the sources, not by importing: ``django.setup()`` already imports the
write path (``commands``, ``fastplay`` and ``selectors`` are in ``sys.modules`` after it), so no
interpreter can import one of its modules first, and a cycle that broke it would fail every test
that starts Django."""

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "games"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py") if "migrations" not in path.parts}


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports Python runs when the module is imported: its body, into ``if``/``try`` blocks
    (but not ``if TYPE_CHECKING:``), not into functions or classes."""
    found, todo = [], list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            todo += node.body + node.orelse
        elif isinstance(node, ast.Try):
            todo += node.body + node.orelse + node.finalbody + [n for h in node.handlers for n in h.body]
    return found


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The ``games`` modules an import statement runs: ``from games.write import fastplay`` the
    submodule ``games.write.fastplay``, ``from games.write.unit import Unit`` the module itself."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in MODULES}
    base = node.module or ""
    if node.level:
        package = module.split(".")
        if MODULES[module].name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, base] if base else package)
    named = {f"{base}.{alias.name}" for alias in node.names} & MODULES.keys()
    return named or ({base} & MODULES.keys())


def import_graph() -> dict[str, set[str]]:
    """Each ``games`` module and the ``games`` modules its module-level imports run."""
    graph = {}
    for module, path in MODULES.items():
        imports = _top_level_imports(ast.parse(path.read_text(), str(path)))
        graph[module] = {target for node in imports for target in _targets(module, node)} - {module}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of ``graph`` (its modules, the first repeated last), or [] if there is none."""
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        return error.args[1]
    return []


def test_the_graph_sees_the_imports_that_make_the_write_path():
    graph = import_graph()
    assert "games.write.fastplay" in graph["games.write.commands"]
    assert "games.write.unit" in graph["games.write.fastplay"]
    assert "games.write.results" in graph["games.read.selectors"]
    assert "games.sql.rows" in graph["games.sql.matches"]  # ``from games.sql import rows``: the submodule


def test_the_games_package_has_no_import_cycle():
    cycle = _cycle(import_graph())
    assert cycle == [], " → ".join(cycle)


def test_a_cycle_would_be_found():
    graph = import_graph()
    graph["games.write.results"].add("games.write.commands")  # results importing the runner
    assert "games.write.results" in _cycle(graph)


def test_nothing_in_games_imports_the_api_or_the_pages():
    """Data flows one way: the API and the pages call ``games``, never back (a command's answer
    is rendered by the view after ``run`` returned) — not even from inside a function."""
    callers = {"api", "web"}
    found = [
        f"{module}: {ast.unparse(node)}"
        for module, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            name.split(".")[0] in callers
            for name in ([node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names])
        )
        and not (isinstance(node, ast.ImportFrom) and node.level)
    ]
    assert found == []
