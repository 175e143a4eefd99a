"""Writes tests/data/event_log_v1.json: a few matches, covering every event type and every
optional payload key, stored by the commands and dumped row by row (type, payload, actor,
created_at, seq, hash) with what the fold gave for them when the file was written.

Not collected by default (the name is not ``test_*``); run it on purpose, once, with the code
whose log it should keep:

    PYTHONPATH=$PWD pytest -p no:cacheprovider tests/store/write_event_fixture.py

tests/store/test_store_event_fixture.py replays the file with the code of today: every
stored payload must parse into its typed event and serialise back to the same bytes, the
chains must verify, and the one fold must give the same engine state and summary.
"""

import datetime as dt
import json
from pathlib import Path

import pytest
from support import EXAMPLES, sample
from support.world import play_legal_cards, play_record, state_of

from games.domain.chain import timestamp
from games.domain.projections import fold, rulings_of, sign_offs_of, snapshot_of, summary_of
from games.models import DealSecret, Match, MatchEvent, MatchProjection
from games.write import disputes, services, signoffs

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "event_log_v1.json"
TALLY = EXAMPLES.parent / "examples-tally"


def _tally_sample(name: str) -> dict:
    return json.loads((TALLY / f"{name}.record.json").read_text())


def _users(django_user_model, names):
    made = {}
    for name in names:
        made[name] = django_user_model.objects.create_user(name)
        services.player_for_user(made[name])
    return made


def _dump(match: Match) -> dict:
    match.refresh_from_db()
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    secrets = {str(n): {"hands": h, "salt": s} for n, h, s in match.secrets.values_list("number", "hands", "salt")}
    state = fold(rows, dict(DealSecret.objects.filter(match=match).values_list("number", "hands")))
    summary = {**summary_of(state, match, rulings_of(rows)), **sign_offs_of(rows)}
    projection = MatchProjection.objects.get(pk=match.pk)
    return {
        "match": str(match.pk),
        "dealing": match.dealing,
        "status": match.status,
        "events": [
            {
                "seq": row.seq,
                "type": row.type,
                "payload": row.payload,
                "actor": row.actor_name,
                "created_at": timestamp(row.created_at),
                "hash": row.hash,
            }
            for row in rows
        ],
        "secrets": secrets,
        "expected": {"snapshot": snapshot_of(state), "summary": summary},
        "projection": {"head_hash": projection.head_hash, "summary": projection.summary},
    }


@pytest.mark.django_db
def test_write_event_fixture(django_user_model):
    staff = django_user_model.objects.create_user("arbiter", is_staff=True)
    scorer = django_user_model.objects.create_user("scorer")
    matches = []

    # 1. A paper sheet of points only (R33), a sale on a filed deal, a date of play; then rulings
    #    (deal_voided, no_change twice), the voided deal filed again, signatures, withdrawal, reinstatement.
    points = _tally_sample("tally-legal-points-m800005")
    seated = _users(django_user_model, points["players"].values())
    match = services.record_import(actor=scorer, record=points)
    last = len(points["deals"])
    voided = disputes.dispute_raise(match_id=match.pk, actor=scorer, deal=last, statement="miscounted")
    disputes.ruling_record(dispute_id=voided.pk, actor=staff, ruling="deal_voided", reason="the sheet was wrong")
    services.deal_tally(match_id=match.pk, actor=scorer, points=points["deals"][-1]["points"])
    first = disputes.dispute_raise(match_id=match.pk, actor=scorer, deal=1, statement="a doubt")
    disputes.ruling_record(dispute_id=first.pk, actor=staff, ruling="no_change", reason="as filed")
    disputes.ruling_record(dispute_id=first.pk, actor=staff, ruling="no_change", reason="checked again")
    signoffs.result_confirm(match_id=match.pk, actor=seated[points["players"]["N"]])
    signoffs.result_confirm(match_id=match.pk, actor=seated[points["players"]["E"]])
    signoffs.match_withdraw(match_id=match.pk, actor=staff, reason="filed twice")
    signoffs.match_reinstate(match_id=match.pk, actor=staff, reason="it was not")
    matches.append(match)

    # 2. Tallies (R31, R32) and a played deal with its lead sold, still in play; no date of play.
    matches.append(services.record_import(actor=scorer, record=_tally_sample("tally-legal-partial-m800001")))

    # 3. A recorded match played live by its scorer: a deal, a lead offered before the next deal
    #    and kept, part of that deal; a score adjusted (with an override); then abandoned.
    record = sample("m2-legal")
    seated = _users(django_user_model, record["players"].values())
    match = services.match_create(
        actor=scorer, seats=record["players"], first_dealer="N", dealing=Match.Dealing.RECORDED, scorer="scorer"
    )
    play_record(match, record, scorer, deals=1)
    services.lead_offer(match_id=match.pk, actor=scorer, price=record["deals"][1]["sale"]["price"], seat="E")
    services.lead_decide(match_id=match.pk, actor=scorer, keep=True)
    services.deal_start(match_id=match.pk, actor=scorer, hands=record["deals"][1]["hands"])
    play_legal_cards(match, scorer, 6)
    played = MatchProjection.objects.get(pk=match.pk).summary["deals"][0]["points"]
    adjusted = disputes.dispute_raise(match_id=match.pk, actor=seated[record["players"]["S"]], deal=1, statement="x")
    disputes.ruling_record(
        dispute_id=adjusted.pk, actor=staff, ruling="score_adjusted", reason="agreed", points=played, override="why"
    )
    services.match_abandon(match_id=match.pk, actor=scorer, reason="the hall closed")
    matches.append(match)

    # 4. A server-dealt match (commitments, hands revealed), played by its seats, a date of play,
    #    no scorer; its second deal in play (its hands a secret).
    seated = _users(django_user_model, ("north", "east", "south", "west"))
    match = services.match_create(
        actor=seated["north"],
        seats={"N": "north", "E": "east", "S": "south", "W": "west"},
        first_dealer="E",
        dealing=Match.Dealing.SERVER,
        ruleset={"options": {"regular_deals": ["R", "O"]}},
        played_on=dt.date(2026, 5, 1),
    )
    for deal in (1, 2):
        services.deal_start(match_id=match.pk, actor=seated["north"])
        for _ in range(52 if deal == 1 else 5):
            seat = state_of(match).deal.to_play
            card = str(state_of(match).deal.legal_cards(seat)[0])
            user = seated[{"N": "north", "E": "east", "S": "south", "W": "west"}[seat.name]]
            services.card_play(match_id=match.pk, actor=user, card=card)
    matches.append(match)

    # 5. A paper sheet filed deal by deal by its scorer, the latest deal corrected (issue 23, item 3):
    #    the same sheet's points, seats rotated (a regular rozbójnik: any seat may have taken them).
    players = points["players"]
    match = services.match_create(
        actor=scorer, seats=players, first_dealer="N", dealing=Match.Dealing.RECORDED, scorer="scorer"
    )
    first = points["deals"][0]["points"]
    services.deal_tally(match_id=match.pk, actor=scorer, points=first)
    services.deal_correct(match_id=match.pk, actor=scorer, points=dict(zip("NESW", [first[s] for s in "WNES"])))
    matches.append(match)

    log = {
        "about": "Match logs stored by the commands before typed events (tests/store/write_event_fixture.py).",
        "matches": [_dump(m) for m in matches],
    }
    types = {e["type"] for m in log["matches"] for e in m["events"]}
    assert types == set(MatchEvent.Type.values), set(MatchEvent.Type.values) - types
    FIXTURE.write_text(json.dumps(log, indent=1, ensure_ascii=False) + "\n")  # keys as stored
