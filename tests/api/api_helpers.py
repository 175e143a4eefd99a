"""Helpers for the API tests: sample records, request shortcuts, card owners."""

import json
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
TALLY_EXAMPLES = EXAMPLES.parent / "examples-tally"  # paper-sheet deals (R31–R33): names start "tally-"
SEATS = ("N", "E", "S", "W")
PROBLEM = "application/problem+json"


def _folder(name: str) -> Path:
    return TALLY_EXAMPLES if name.startswith("tally-") else EXAMPLES


def sample(name: str) -> dict:
    return json.loads((_folder(name) / f"{name}.record.json").read_text())


def expected(name: str) -> dict:
    return json.loads((_folder(name) / f"{name}.expected.json").read_text())


def sample_names(*, tally: bool = False) -> list[str]:
    """The samples of tests/data/examples/, and with ``tally`` those of examples-tally/ too."""
    folders = (EXAMPLES, TALLY_EXAMPLES) if tally else (EXAMPLES,)
    return sorted(p.name[: -len(".record.json")] for folder in folders for p in folder.glob("*.record.json"))


def owner(hands: dict[str, list[str]], card: str) -> str:
    return next(seat for seat, cards in hands.items() if card in cards)


def url(match_id, what: str = "") -> str:
    return f"/api/v1/matches/{match_id}/" + (f"{what}/" if what else "")


def post(client, match_id, what: str, body: dict | None = None, **headers):
    return client.post(url(match_id, what), body or {}, format="json", headers=headers or None)


def state(client, match_id) -> dict:
    response = client.get(url(match_id, "state"))
    assert response.status_code == 200, response.content
    return response.json()


def play_legal(client, match_id, **headers):
    """The viewer on turn plays his first legal card."""
    view = state(client, match_id)
    return post(client, match_id, "plays", {"card": view["deal"]["legal_cards"][0]}, **headers)
