"""The optional compiled search (games/engine/compiled.py, docs/analysis.md "Speed"): when
``make compile-engine`` has built it, it was built from the source here and gives the pure-Python
module's answers on the same positions, node for node. Without it these tests are skipped (the
other analysis tests then test the pure module; with it, the compiled one)."""

import importlib.machinery
import importlib.util
import random
import sys

import pytest

from games.engine import SEATS, analysis, compiled, record, replay
from games.engine.simulate import simulate_match

pytestmark = pytest.mark.skipif(not compiled.extensions(), reason="the engine is not compiled (make compile-engine)")


def test_built_from_the_source_here():
    assert not compiled.stale(), "analysis.py changed since make compile-engine: run it again, or make clean-engine"


def test_the_compiled_module_is_the_one_imported():
    assert analysis.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


@pytest.fixture(scope="module")
def pure():
    """analysis.py itself, under another name (its relative imports resolve in games.engine as usual)."""
    spec = importlib.util.spec_from_file_location("games.engine.analysis_source", compiled.ENGINE / "analysis.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def positions(seed: int, count: int) -> list:
    """Positions of simulated deals with at most 7 tricks left (as benchmarks/analysis.py draws them)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = replay(record.decode(simulate_match(rng))).state
        for result in state.results[:3]:
            found.append(analysis.deal_position(result.final, rng.randint(24, 51)))
    return found[:count]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_same_answers_as_the_source(pure, seed):
    for position in positions(seed, 15):
        fast, slow = analysis.analyse(position, budget=60.0), pure.analyse(position, budget=60.0)
        assert fast.exact and slow.exact
        assert fast.as_json() == slow.as_json() and fast.nodes == slow.nodes
        for seat in SEATS:
            for mode in analysis.MODES:
                fast_bounds, slow_bounds = (
                    analysis.search_bounds(position, seat, mode),
                    pure.search_bounds(position, seat, mode),
                )
                assert (fast_bounds.low, fast_bounds.high) == (slow_bounds.low, slow_bounds.high)
