"""The compiled search (games/engine/compiled.py, docs/analysis.md "Speed"): mypyc compiles
``analysis.py``, ``masks.py`` and ``takes_all.py`` (in a copy of the engine), its runtime
library beside them, and the compiled modules give the sources' answers on the same positions,
node for node; a compiled engine left in the checkout by
``make compile-engine`` is current and is the one imported."""

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys

from games.engine import analysis, compiled, masks, takes_all

SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)

# Positions of simulated deals with at most 7 tricks left (as benchmarks/analysis.py draws them),
# analysed exactly, with each seat's start bounds: run by this process (the source) and by Python
# on the compiled copy; the same code, so the positions are the same.
ANSWERS = """
import json, random, sys
from games.engine import SEATS, analysis, masks, record, replay, takes_all
from games.engine.simulate import simulate_match

def positions(seed, count):
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = replay(record.decode(simulate_match(rng))).state
        for result in state.results[:3]:
            found.append(analysis.deal_position(result.final, rng.randint(24, 51)))
    return found[:count]

answers = []
for position in positions(int(sys.argv[1]), int(sys.argv[2])):
    found = analysis.analyse(position, budget=60.0)
    bounds = [analysis.search_bounds(position, seat, mode) for seat in SEATS for mode in analysis.MODES]
    answers.append({"exact": found.exact, "nodes": found.nodes, "json": found.as_json(),
                    "bounds": [[b.low, b.high] for b in bounds]})
modules = [module.__file__ for module in (analysis, masks, takes_all)]
print(json.dumps({"modules": modules, "answers": answers}, default=str))
"""


def answers(python_path, seed=1, count=20) -> dict:
    env = {**os.environ, "PYTHONPATH": str(python_path)}
    done = subprocess.run(
        [sys.executable, "-c", ANSWERS, str(seed), str(count)],
        cwd=python_path,  # `-c` puts the working directory first on the path
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def test_compiled_with_mypyc_the_search_gives_the_sources_answers_node_for_node(tmp_path):
    engine = compiled.ROOT / "games" / "engine"
    shutil.copytree(
        engine, tmp_path / "games" / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.sha256")
    )
    (tmp_path / "games" / "__init__.py").write_text("")
    compiled.build(tmp_path)
    assert compiled.extensions(tmp_path)

    fast, slow = answers(tmp_path), answers(compiled.ROOT)
    assert all(
        name.endswith(SUFFIXES) and name.startswith(str(tmp_path / "games" / "engine")) for name in fast["modules"]
    )
    assert not list(tmp_path.glob("*__mypyc*"))  # the runtime library is in games/engine, not at the top
    sources = [str(engine / name) for name in compiled.SOURCES]
    assert slow["modules"] == sources or all(name.endswith(SUFFIXES) for name in slow["modules"])
    assert all(answer["exact"] for answer in slow["answers"])
    assert fast["answers"] == slow["answers"]


def test_a_compiled_engine_in_the_checkout_is_current_and_is_the_one_imported():
    modules = (analysis, masks, takes_all)
    if not compiled.extensions():  # pure Python (a clean checkout, CI): the sources themselves run
        assert all(module.__file__.endswith(".py") for module in modules)
        return
    assert not compiled.stale(), "the search changed since make compile-engine: run it again, or make clean-engine"
    assert all(module.__file__.endswith(SUFFIXES) for module in modules)
