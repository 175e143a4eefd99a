"""The read model of the ``kierki-match/1`` record (RECORD_FORMAT.md): the deals of the log
(``games.domain.deal_log``) encoded as a record, as the viewer may see them."""

from __future__ import annotations

from typing import Any

from games.domain.deal_log import FiledDeal, deal_log
from games.domain.event_types import MatchCreated, Sale
from games.domain.log import stream
from games.domain.roles import Role
from games.engine import Seat
from games.engine.cards import BY_NAME
from games.engine.record import FORMAT, SaleRecord, encode_deal, encode_filed_deal
from games.models import DealSecret, Match


def match_record(*, match: Match, viewer: Role) -> dict[str, Any]:
    """The ``kierki-match/1`` record built from the events: every finished deal; the deal in play
    too for scorers and staff (a player gets it once it ends)."""
    log = stream(match)
    created = next((item.event for item in log if isinstance(item.event, MatchCreated)), None)
    shown = []
    for deal in deal_log(log):
        if isinstance(deal, FiledDeal):
            shown.append(encode_filed_deal(deal.entry, deal.value, sale_record(deal.sale)))
            continue
        if not deal.finished and not viewer.sees_all_hands:
            continue
        hands = deal.hands
        if hands is None:  # server-dealt and still in play: only scorers and staff get here
            secret = DealSecret.objects.filter(match=match, number=deal.number).first()
            if secret is None:
                continue
            hands = secret.hands
        plays = [BY_NAME[card] for card in deal.plays]
        shown.append(encode_deal([[BY_NAME[c] for c in hands[s.name]] for s in Seat], plays, sale_record(deal.sale)))
    ruleset = created.ruleset if created else {"name": match.ruleset_name, "options": match.ruleset_options}
    record = {
        "format": FORMAT,
        "ruleset": {"name": ruleset["name"], "options": ruleset.get("options") or {}},
        # the names of now, from the player table (the log names people by id: issue 28); an erased
        # person is "erased player #N" there
        "players": {s.name: p.username for s, p in zip(Seat, match.seat_players())},
        "first_dealer": match.first_dealer,
    }
    if match.played_on is not None:
        record["played_on"] = match.played_on.isoformat()
    record["deals"] = shown
    return record


def sale_record(sale: Sale | None) -> SaleRecord | None:
    return None if sale is None else SaleRecord(sale.buyer, sale.price)
