"""Helpers for the API tests: sample records, request shortcuts, card owners."""

from support import EXAMPLES, PLAYERS, PROBLEM, SEATS, TALLY_EXAMPLES, expected, sample, sample_names  # noqa: F401 - re-exported


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


def create_match(client, dealing: str, **fields):
    """POST /matches/: the four players seated N, E, S, W, first dealer N, ``dealing``, ``fields``."""
    body = {"seats": dict(zip(SEATS, PLAYERS)), "first_dealer": "N", "dealing": dealing, **fields}
    return client.post("/api/v1/matches/", body, format="json")
