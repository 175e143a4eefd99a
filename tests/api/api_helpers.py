"""Helpers for the API tests: sample records, request shortcuts, card owners."""

from support import EXAMPLES, PLAYERS, PROBLEM, SEATS, TALLY_EXAMPLES, expected, sample, sample_names  # noqa: F401 - re-exported
from support.once import fresh_users, once_per_class, once_per_module  # noqa: F401 - re-exported


def api_people() -> dict:
    """The four players of the conftest's ``server_match``; ``scorer`` (scorers group), ``staff``;
    ``outsider``, seated in another match only, with ``o1``–``o3``."""
    from django.contrib.auth import get_user_model
    from support.world import people

    from games.write import services

    made = people(get_user_model(), (*PLAYERS, "scorer", "outsider", "o1", "o2", "o3"))
    services.match_create(
        actor=made["outsider"], first_dealer="N", seats={"N": "outsider", "E": "o1", "S": "o2", "W": "o3"}
    )
    return made


def api_dealt() -> dict:
    """``api_people`` and the conftest's ``dealt_match`` between them: ``{"users": …, "match": id}``."""
    from support import api_client

    users = api_people()
    clients = {name: api_client(user) for name, user in users.items()}
    return {"users": users, "match": deal(clients, new_server_match(clients))}


def dealt_once():
    """The fixtures of a module whose every test plays in the dealt match: ``built`` (``api_dealt``,
    built once for the module: support.once), ``users`` (read again for each test) and
    ``dealt_match``. A module takes them as ``built, users, dealt_match = dealt_once()``."""
    import pytest

    built = once_per_module(api_dealt)

    @pytest.fixture
    def users(built):
        return fresh_users(built["users"])

    @pytest.fixture
    def dealt_match(built):
        return built["match"]

    return built, users, dealt_match


def new_server_match(clients) -> str:
    """A server-dealt match (ala N, bartek E, celina S, darek W; first dealer N, so E leads)
    created by the scorer, who scores it without sitting at it; the four have accepted their seats
    (issue 30: until then the scorer acts for none of them). No deal yet."""
    response = create_match(clients["scorer"], "server", scorer="scorer")
    assert response.status_code == 201, response.content
    seats_accepted(response.json()["id"])
    return response.json()["id"]


def deal(clients, match_id) -> str:
    """The match's next deal dealt (its first: E, bartek, to lead)."""
    response = post(clients["ala"], match_id, "deals")
    assert response.status_code == 201, response.content
    return match_id


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


def seats_accepted(match_id) -> None:
    """Every user seated in the match by someone else accepts his seat through the API (issue 30:
    until then nobody plays or files for it in his place)."""
    from support import api_client

    from scoring.models import SeatInvitation

    for invitation in SeatInvitation.objects.filter(
        match_id=match_id, accepted_at__isnull=True, declined_at__isnull=True
    ).select_related("user"):
        response = api_client(invitation.user).post(f"/api/v1/seat-invitations/{invitation.pk}/accept/")
        assert response.status_code == 200, response.content
