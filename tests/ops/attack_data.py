"""The people and matches of test_ops_attack.py, made in the production-like database its servers
use: run as ``python tests/ops/attack_data.py`` with their environment; prints JSON.

``scorers``: two users, each the scorer of a recorded match of his own (sample m1-legal: its first
deal played out, the second begun), with a token, the match and the seq of each event (every one a
position whose analysis nobody asked for yet); ``pinger``: a third user's token."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token
    from support import PLAYERS, SEATS, sample

    from games.models import Match
    from games.write import services

    make = get_user_model().objects.create_user
    for name in PLAYERS:
        services.player_for_user(make(name))
    record = sample("m1-legal")
    scorers = []
    for name in ("scorer1", "scorer2"):
        scorer = make(name)
        match = services.match_create(
            actor=scorer,
            first_dealer=record["first_dealer"],
            seats=dict(zip(SEATS, PLAYERS)),
            scorer=name,
            dealing=Match.Dealing.RECORDED,
        )
        for number, deal in enumerate(record["deals"][:2], 1):
            services.deal_start(match_id=match.pk, actor=scorer, hands=deal["hands"])
            if "sale" in deal:
                offered = services.lead_offer(
                    match_id=match.pk, actor=scorer, price=deal["sale"]["price"], seat=deal["sale"]["buyer"]
                )
                services.lead_decide(match_id=match.pk, actor=scorer, offer=offered.events[0].seq)
            for card in deal["plays"] if number == 1 else deal["plays"][:8]:
                services.card_play(match_id=match.pk, actor=scorer, card=card)
        match.refresh_from_db()
        scorers.append(
            {
                "token": Token.objects.create(user=scorer).key,
                "match": str(match.pk),
                "version": match.version,
                "seqs": list(range(1, match.version + 1)),
            }
        )
    pinger = Token.objects.create(user=make("pinger")).key
    print(json.dumps({"scorers": scorers, "pinger": pinger}))


if __name__ == "__main__":
    main()
