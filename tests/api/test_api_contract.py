"""The committed contract: ``openapi.yaml`` at the repository root is the live schema. A change to
the API surface fails this test until the file is regenerated and the change recorded in CHANGELOG.md."""

import json
from pathlib import Path

import jsonschema
import pytest
from api_helpers import post, state

from games.models import MatchEvent

REGENERATE = ".venv/bin/python manage.py spectacular --file openapi.yaml --validate --fail-on-warn"


def test_the_live_schema_is_the_committed_openapi_yaml(openapi_schema, committed_openapi):
    live = openapi_schema  # as `manage.py spectacular` writes it (support.fixtures)
    committed = committed_openapi

    assert live == committed, (
        "The live OpenAPI schema differs from the committed openapi.yaml: the API contract changed. "
        "If the change is deliberate, regenerate the file with\n"
        f"    {REGENERATE}\n"
        "and record the change in CHANGELOG.md (removals and renames belong in /api/v2/, see docs/api.md, "
        "'Versioning and deprecation')."
    )


def test_the_live_v2_schema_is_the_committed_openapi_v2_yaml(openapi_schema_v2, committed_openapi_v2):
    assert openapi_schema_v2 == committed_openapi_v2, (
        "The live /api/v2/ schema differs from the committed openapi-v2.yaml. If the change is deliberate, "
        "regenerate it with\n"
        "    .venv/bin/python manage.py spectacular --api-version v2 --file openapi-v2.yaml --validate --fail-on-warn\n"
        "and record the change in CHANGELOG.md."
    )


# --- every body typed (issue 29): tallies, events, frames, webhooks, problems --------------------------


LOG = json.loads((Path(__file__).resolve().parents[1] / "data" / "event_log_v1.json").read_text())
ROZBOJNIK_TALLY = {  # docs/record-format.md, version 1.1
    "N": {"tricks": 3, "hearts": 4, "queens": 1, "kings_jacks": 2, "king_of_hearts": False, "last_tricks": 0},
    "E": {"tricks": 0, "hearts": 0, "queens": 0, "kings_jacks": 0, "king_of_hearts": False, "last_tricks": 0},
    "S": {"tricks": 6, "hearts": 5, "queens": 2, "kings_jacks": 4, "king_of_hearts": True, "last_tricks": 2},
    "W": {"tricks": 4, "hearts": 4, "queens": 1, "kings_jacks": 2, "king_of_hearts": False, "last_tricks": 0},
}
ODGRYWKA_TALLY = {"N": {"tricks": 5}, "E": {"tricks": 2}, "S": {"tricks": 6}, "W": {"tricks": 0}}


def conforms(document: dict, name: str, instance) -> bool:
    """Whether ``instance`` validates against the component ``name`` of ``document`` (JSON Schema
    2020-12, the dialect of OpenAPI 3.1; ``discriminator`` is only a hint, ``oneOf`` decides)."""
    return jsonschema.Draft202012Validator({**document, "$ref": f"#/components/schemas/{name}"}).is_valid(instance)


def operation(document: dict, operation_id: str) -> dict:
    return next(
        op
        for item in document["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and op.get("operationId") == operation_id
    )


def problem_schema(document: dict, operation_id: str, status: str) -> dict:
    return operation(document, operation_id)["responses"][status]["content"]["application/problem+json"]["schema"]


def test_a_tally_is_typed_per_seat_with_the_keys_of_r31_and_points_per_seat_r33(committed_openapi):
    """Issue 29 item 1: ``tally`` was ``{type: object}`` (``Record<string, never>`` in TypeScript)."""
    good = [
        {"tally": ROZBOJNIK_TALLY},
        {"tally": ODGRYWKA_TALLY},
        {"points": {"N": -48, "E": 0, "S": -162, "W": -50}},
        {"tally": ODGRYWKA_TALLY, "sale": {"buyer": "S", "price": 2}},
    ]
    without_west = {seat: take for seat, take in ROZBOJNIK_TALLY.items() if seat != "W"}
    half_rozbojnik = {**ROZBOJNIK_TALLY, "N": {"tricks": 3, "hearts": 4}}  # R32 a: exactly the keys of its kind
    bad = [
        {"tally": without_west},
        {"tally": half_rozbojnik},
        {"tally": {**ODGRYWKA_TALLY, "E": {"tricks": "2"}}},
        {"points": {"N": -48, "E": 0, "S": -162}},
        {"sale": {"buyer": "X", "price": 2}},
    ]

    assert all(conforms(committed_openapi, "TallyInputRequest", body) for body in good)
    assert not any(conforms(committed_openapi, "TallyInputRequest", body) for body in bad)
    record_deal = committed_openapi["components"]["schemas"]["RecordDealRequest"]["properties"]
    assert "TallyRequest" in json.dumps(record_deal["tally"]) and "SeatPointsRequest" in json.dumps(
        record_deal["points"]
    )
    assert conforms(committed_openapi, "RecordDeal", {"tally": ROZBOJNIK_TALLY})


def test_every_event_kind_has_its_component_and_every_stored_event_validates(committed_openapi):
    """One schema per kind, discriminated by ``type``: each event of the stored v1 log (every kind
    is in it) validates against ``Event`` and its own kind's component, and against no other."""
    schemas = committed_openapi["components"]["schemas"]
    assert set(schemas["Event"]["discriminator"]["mapping"]) == set(MatchEvent.Type.values)
    assert set(schemas["AuditEvent"]["discriminator"]["mapping"]) == set(MatchEvent.Type.values)
    for logged in LOG["matches"]:
        for stored in logged["events"]:
            event = {**stored, "redacted": False}
            own = schemas["Event"]["discriminator"]["mapping"][event["type"]].rsplit("/", 1)[1]
            assert conforms(committed_openapi, "Event", event), event
            assert conforms(committed_openapi, "AuditEvent", stored), stored  # the audit: as stored
            other = next(name for name in ("CardPlayedEvent", "MatchCreatedEvent") if name != own)
            assert not conforms(committed_openapi, other, event)
    assert not conforms(committed_openapi, "Event", {**event, "type": "card_played", "payload": {"seat": "N"}})


def test_each_stream_frame_is_typed_by_its_event_name(committed_openapi):
    schemas = committed_openapi["components"]["schemas"]
    frames = schemas["MatchStreamEvent"]["discriminator"]["mapping"]
    notices = schemas["FeedNotice"]["discriminator"]["mapping"]

    assert set(frames) == {*MatchEvent.Type.values, "end"}
    assert set(schemas["FeedStreamEvent"]["discriminator"]["mapping"]) == set(notices)
    assert {"your_turn", "lead_decision", "match_started", "match_finished"} <= set(notices)
    card = schemas["CardPlayedFrame"]["properties"]
    assert card["event"]["const"] == "card_played"
    assert card["data"]["contentSchema"] == {"$ref": "#/components/schemas/CardPlayedEvent"}
    your_turn = {
        "id": 7, "type": "your_turn", "match": "0b9f7f5e-4c1e-4d6c-9d55-1b9a3f1f2a11", "version": 5,
        "seat": "N", "deal": 1, "legal_cards": ["2C"], "can_sell": False,
    }  # fmt: skip
    assert conforms(committed_openapi, "FeedNotice", your_turn)
    assert not conforms(committed_openapi, "FeedNotice", {**your_turn, "type": "lead_decision"})


def test_every_webhook_event_has_its_body_in_the_webhooks_section(committed_openapi):
    from webhooks.events import EVENT_TYPES, PING

    assert committed_openapi["openapi"].startswith("3.1")
    webhooks = committed_openapi["webhooks"]
    assert set(webhooks) == {*EVENT_TYPES, PING}
    for name, item in webhooks.items():
        body = item["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        assert committed_openapi["components"]["schemas"]["WebhookBody"]["discriminator"]["mapping"][name] == body
        signature = [p for p in item["post"]["parameters"] if p["name"] == "X-Kierki-Signature"]
        assert signature and signature[0]["in"] == "header"


@pytest.mark.django_db
def test_the_bodies_a_season_match_filed_from_its_sheet_sends_are_webhook_bodies(committed_openapi, world, settings):
    """What the server would POST (webhooks.signing.body of each delivery written) validates
    against ``WebhookBody`` and against its own type's component."""
    from support.world import file_by_points, season_match, simulated

    from webhooks import services as hooks
    from webhooks import signing
    from webhooks.models import Delivery

    settings.WEBHOOKS_ALLOW_PRIVATE = True
    endpoint = hooks.endpoint_create(
        actor=world.users["ada"],
        club_id=world.club.pk,
        url="http://127.0.0.1:9/hook",
        event_types=["deal.finished", "match.finished"],
    )
    match = season_match(world)
    file_by_points(match, simulated(3), world.users["sam"])
    hooks.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)

    sent = [
        json.loads(signing.body(event_id=d.event_id, type=d.event_type, created_at=d.created_at, data=d.payload))
        for d in Delivery.objects.order_by("pk")
    ]
    mapping = committed_openapi["components"]["schemas"]["WebhookBody"]["discriminator"]["mapping"]
    assert {body["type"] for body in sent} == {"deal.finished", "match.finished", "ping"}
    for body in sent:
        assert conforms(committed_openapi, "WebhookBody", body), body
        assert conforms(committed_openapi, mapping[body["type"]].rsplit("/", 1)[1], body)
    assert not conforms(committed_openapi, "WebhookBody", {**sent[0], "type": "match.finished"})


def test_each_problem_response_is_the_union_of_the_codes_it_may_carry(committed_openapi):
    """``code`` is an enum per operation (the discriminator's mapping), each code's problem with
    its own members: a 412 carries ``current_version``, an R30 code ``rule`` and ``error``."""
    from api.problems import PROBLEMS, RULES

    stale = problem_schema(committed_openapi, "matches_play", "412")
    illegal = problem_schema(committed_openapi, "matches_play", "422")
    duplicate = problem_schema(committed_openapi, "matches_import", "409")

    ruling = problem_schema(committed_openapi, "disputes_ruling", "422")

    assert set(stale["discriminator"]["mapping"]) == {"version_mismatch"}
    assert {"ruling_not_allowed", "ruling_outside_analysis"} <= set(ruling["discriminator"]["mapping"])
    assert set(RULES) | {"idempotency_key_reused"} <= set(illegal["discriminator"]["mapping"])
    assert {"duplicate_record", "season_closed", "idempotency_in_progress"} <= set(
        duplicate["discriminator"]["mapping"]
    )
    schemas = committed_openapi["components"]["schemas"]
    assert "current_version" in schemas["VersionMismatchProblem"]["required"]
    assert {"rule", "error"} <= set(schemas["RuleViolationProblem"]["required"])
    for item in committed_openapi["paths"].values():
        for op in item.values():
            for status, response in (op.get("responses", {}) if isinstance(op, dict) else {}).items():
                schema = response.get("content", {}).get("application/problem+json", {}).get("schema")
                if schema and "discriminator" in schema:
                    assert set(schema["discriminator"]["mapping"]) <= set(PROBLEMS), op["operationId"]
                    assert all(PROBLEMS[code][0] == int(status) for code in schema["discriminator"]["mapping"])


@pytest.mark.django_db
def test_the_problems_the_api_answers_a_play_validate_against_that_operation_s_union(
    committed_openapi, clients, dealt_match
):
    """A stale ``If-Match`` and a card not in hand, as answered, against ``matches_play``'s 412 and 422
    (bartek, E, leads the dealt match's first trick)."""
    view = state(clients["bartek"], dealt_match)
    mine = view["deal"]["hand"]
    not_mine = next(f"{rank}{suit}" for suit in "SHDC" for rank in "23456789TJQKA" if f"{rank}{suit}" not in mine)

    stale = post(clients["bartek"], dealt_match, "plays", {"card": mine[0]}, **{"If-Match": '"999"'})
    illegal = post(clients["bartek"], dealt_match, "plays", {"card": not_mine})

    assert stale.status_code == 412 and illegal.status_code == 422, (stale.content, illegal.content)
    for answer, status in ((stale, "412"), (illegal, "422")):
        union = problem_schema(committed_openapi, "matches_play", status)
        assert answer.json()["code"] in union["discriminator"]["mapping"]
        assert jsonschema.Draft202012Validator({**committed_openapi, **union}).is_valid(answer.json()), answer.json()
