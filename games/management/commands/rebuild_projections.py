"""``manage.py rebuild_projections [--match UUID]``: recreate the read models from events alone.

For each match, in its own transaction with the match row locked: replay the events through
the same fold the commands use, then rewrite the match's ``MatchProjection`` and ``DealScore``
rows (and its derived ``version`` and ``status``) with the same functions the commands write
them with, so the rows come out identical to those written live.
"""

from __future__ import annotations

import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext, ngettext

from games.domain import confirmation
from games.domain.projections import deal_score_rows, fold, rulings_of, sign_offs_of, snapshot_of, summary_of
from games.models import DealScore, DealSecret, Match, MatchEvent, MatchProjection

T = MatchEvent.Type


class Command(BaseCommand):
    help = "Recreate every match's read models (MatchProjection, DealScore) from its events alone."

    def add_arguments(self, parser):
        parser.add_argument("--match", type=uuid.UUID, help="rebuild only this match (its UUID)")

    def handle(self, *args, match=None, **options):
        matches = Match.objects.order_by("created_at", "id")
        ids = list((matches.filter(pk=match) if match is not None else matches).values_list("id", flat=True))
        if match is not None and not ids:
            raise CommandError(gettext("no match %(id)s") % {"id": match})
        for number, match_id in enumerate(ids, 1):
            self.stdout.write(f"[{number}/{len(ids)}] {rebuild_match(match_id)}")
        self.stdout.write(
            self.style.SUCCESS(
                ngettext(
                    "rebuilt the read models of %(count)s match(es)",
                    "rebuilt the read models of %(count)s match(es)",
                    len(ids),
                )
                % {"count": len(ids)}
            )
        )


def rebuild_match(match_id) -> str:
    """Rewrite one match's read models from its events; a line saying what was rebuilt."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        rows = list(match.events.order_by("seq"))
        if not rows:
            return gettext("match %(id)s: no events, skipped") % {"id": match.pk}
        state = fold(rows, dict(DealSecret.objects.filter(match=match).values_list("number", "hands")))
        match.version = rows[-1].seq
        match.status = _status(rows, state)
        summary = {**summary_of(state, match, rulings_of(rows)), **sign_offs_of(rows)}
        match.withdrawn = summary["withdrawal"] is not None
        match.confirmed = confirmation.rule_met(match, confirmation.signed_now(summary)) is not None  # filing kept
        Match.objects.filter(pk=match.pk).update(
            version=match.version, status=match.status, withdrawn=match.withdrawn, confirmed=match.confirmed
        )
        DealScore.objects.filter(match=match).delete()
        DealScore.objects.bulk_create(deal_score_rows(match, state, 1))
        MatchProjection.objects.update_or_create(
            match=match,
            defaults=dict(version=match.version, head_hash=rows[-1].hash, snapshot=snapshot_of(state), summary=summary),
        )
    count = len(state.results)
    return ngettext(
        "match %(id)s: version %(version)s, %(status)s, %(count)s finished deal",
        "match %(id)s: version %(version)s, %(status)s, %(count)s finished deals",
        count,
    ) % {"id": match.pk, "version": match.version, "status": match.status, "count": count}


def _status(rows: list[MatchEvent], state) -> str:
    if any(row.type == T.MATCH_ABANDONED for row in rows):
        return Match.Status.ABANDONED
    return Match.Status.FINISHED if state.complete else Match.Status.IN_PROGRESS
