"""Every problem code the code base can answer is registered (api/problems.py), served under
/api/v1/problems/<code>/, listed by GET /api/v1/problems/ and named in the OpenAPI document: the
codes are collected from the source, so a new error class or ``problem("...")`` call without a
registration fails here."""

import ast
from pathlib import Path

import pytest
from rest_framework import exceptions as drf_exceptions
from rest_framework.test import APIClient

from api.problems import PROBLEMS
from games.engine.errors import VIOLATIONS

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "config", "games", "scoring", "webhooks", "web")


def string(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def codes_in(tree: ast.AST) -> set[str]:
    """``code = "x"`` and ``status, code, title = 409, "x", …`` in a class body (the CommandError
    family), and ``problem("x", …)`` calls."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                if not isinstance(statement, ast.Assign):
                    continue
                for target in statement.targets:
                    if isinstance(target, ast.Name) and target.id == "code" and string(statement.value):
                        found.add(string(statement.value))
                    if isinstance(target, ast.Tuple) and isinstance(statement.value, ast.Tuple):
                        for name, value in zip(target.elts, statement.value.elts):
                            if isinstance(name, ast.Name) and name.id == "code" and string(value):
                                found.add(string(value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "problem" and node.args:
            if string(node.args[0]):
                found.add(string(node.args[0]))
    return found


def raised_codes() -> set[str]:
    codes = set(VIOLATIONS)
    for package in PACKAGES:
        for source in (ROOT / package).rglob("*.py"):
            if "engine" in source.parts:
                continue  # the R30 codes: VIOLATIONS, above (their base class's code is never answered)
            codes |= codes_in(ast.parse(source.read_text(), filename=str(source)))
    # DRF's own errors reach api.problems.exception_handler with their default codes.
    for name in dir(drf_exceptions):
        cls = getattr(drf_exceptions, name)
        if isinstance(cls, type) and issubclass(cls, drf_exceptions.APIException) and cls.status_code < 500:
            codes.add(cls.default_code)
    return codes


def test_the_collector_finds_the_codes_of_error_classes_and_problem_calls():
    source = (
        "class A(E):\n    status, code, title = 409, 'season_closed', 'x'\n"
        "class B(E):\n    code = 'last_admin'\n"
        "body = problem('payload_too_large', status=413)\n"
    )

    assert codes_in(ast.parse(source)) == {"season_closed", "last_admin", "payload_too_large"}


def test_every_code_the_code_base_raises_is_registered():
    codes = raised_codes()

    assert {"season_closed", "last_admin", "match_closed", "must_follow_suit", "throttled"} <= codes
    assert sorted(codes - set(PROBLEMS)) == []


@pytest.mark.django_db
def test_every_registered_code_is_listed_and_served():
    client = APIClient()

    listed = client.get("/api/v1/problems/").json()

    assert {problem["code"] for problem in listed} == set(PROBLEMS)
    for code in sorted(PROBLEMS):
        answer = client.get(f"/api/v1/problems/{code}/")
        assert answer.status_code == 200, code
        assert answer.json()["type"] == f"/api/v1/problems/{code}/"


def test_every_code_but_the_rule_violations_is_named_on_the_operations_that_return_it(committed_openapi):
    """The R30 codes are named as a family (the 422 of the commands points at /problems/); the few
    any request may get (405, 406, 500) are named in the API's description."""
    document = committed_openapi
    named = {code for code in PROBLEMS if f"`{code}`" in document["info"]["description"]}
    for item in document["paths"].values():
        for operation in item.values():
            for response in operation.get("responses", {}).values() if isinstance(operation, dict) else ():
                named |= {code for code in PROBLEMS if f"`{code}`" in response.get("description", "")}

    assert sorted(set(PROBLEMS) - set(VIOLATIONS) - named) == []
