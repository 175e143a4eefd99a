"""Webhook commands: endpoints (register, change, remove, ping), the outbox (deliveries written
in the transaction of the event they announce, queued after it commits), and sending them.

Sending (``delivery_attempt``, ``deliveries_sweep``) claims a due delivery in a short
transaction — ``SELECT … FOR UPDATE SKIP LOCKED``, then its ``next_attempt_at`` is moved a
lease ahead — and posts it outside any transaction: two workers never send it at once, no
database transaction waits on a receiver, and a worker that dies mid-send leaves the row to
be sent again when the lease ends. 2xx is success; anything else, a timeout or a network error
is a failure retried with exponential backoff until 24 h after the delivery was created (or
redelivered), then ``failed``.
"""

from __future__ import annotations

import datetime
import logging
import random
import uuid
from collections.abc import Iterable
from functools import partial
from typing import Any

import httpx
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.domain.exceptions import InvalidInput, NotFound
from games.domain.ids import int_id
from games.models import Match, MatchEvent, MatchProjection, Player
from scoring.models import Season, SeasonMatch

from . import addresses, events, selectors, signing, transport
from .models import Delivery, Endpoint

log = logging.getLogger(__name__)

RETRY_WINDOW = datetime.timedelta(hours=24)
BACKOFF_BASE = 30.0  # seconds before the first retry; doubled after each failure
BACKOFF_CAP = 4 * 3600.0
BACKOFF_JITTER = 0.2  # ± this fraction, so that a receiver's failed deliveries do not retry in step
LEASE = datetime.timedelta(minutes=10)  # a claimed delivery is not claimed again before this
SWEEP_BATCH = 100
MIN_SECRET, MAX_SECRET = 16, 200


# --- endpoints -------------------------------------------------------------------------------------


def endpoint_create(
    *, actor, club_id, url: str, event_types: Any, secret: str | None = None, active: bool = True
) -> Endpoint:
    """Register a receiver; the secret, generated unless given, is on the returned row (show it once)."""
    club = selectors.club_for_admin(actor=actor, club_id=club_id)
    return Endpoint.objects.create(
        club=club,
        url=_checked_url(url),
        event_types=_checked_types(event_types),
        secret=_checked_secret(secret) if secret is not None else signing.new_secret(),
        active=active,
        created_by=actor,
    )


def endpoint_update(*, actor, endpoint_id, **fields: Any) -> Endpoint:
    """Change ``url``, ``event_types``, ``secret`` or ``active``."""
    endpoint = selectors.endpoint_for_admin(actor=actor, endpoint_id=endpoint_id)  # 404 before any check
    checks = {"url": _checked_url, "event_types": _checked_types, "secret": _checked_secret, "active": bool}
    unknown = sorted(set(fields) - set(checks))
    if unknown:
        raise InvalidInput(gettext("a webhook has no field %(field)s") % {"field": repr(unknown[0])}, field=unknown[0])
    for name, value in fields.items():
        setattr(endpoint, name, checks[name](value))
    endpoint.save(update_fields=list(fields) or None)
    return endpoint


def endpoint_delete(*, actor, endpoint_id) -> None:
    """Remove a receiver and its delivery log (pending deliveries are never sent)."""
    selectors.endpoint_for_admin(actor=actor, endpoint_id=endpoint_id).delete()


def endpoint_ping(*, actor, endpoint_id) -> Delivery:
    """A ``ping`` delivery to the endpoint (even a disabled one), sent after the commit."""
    endpoint = selectors.endpoint_for_admin(actor=actor, endpoint_id=endpoint_id)
    data = {"webhook": endpoint.pk, "club": endpoint.club_id, "url": endpoint.url}
    with transaction.atomic():
        [delivery] = deliveries_enqueue(endpoints=[endpoint], happened=[(events.PING, data)], only=events.PING)
    delivery.refresh_from_db()  # without a broker it has been attempted by now
    return delivery


def _checked_url(url: Any) -> str:
    try:
        return addresses.resolve(url).url
    except addresses.UnsafeURL as exc:
        raise InvalidInput(str(exc), field="url") from None


def _checked_types(types: Any) -> list[str]:
    if not isinstance(types, (list, tuple)) or not types:
        raise InvalidInput(
            gettext("event_types must be a list of some of %(choices)s") % {"choices": ", ".join(events.EVENT_TYPES)},
            field="event_types",
        )
    for index, name in enumerate(types):
        if name not in events.EVENT_TYPES:
            raise InvalidInput(
                gettext("unknown event type %(name)s: use %(choices)s")
                % {"name": repr(name), "choices": ", ".join(events.EVENT_TYPES)},
                field=f"event_types.{index}",
            )
    return list(dict.fromkeys(types))


def _checked_secret(secret: Any) -> str:
    if not isinstance(secret, str) or not MIN_SECRET <= len(secret) <= MAX_SECRET or not secret.isprintable():
        raise InvalidInput(
            gettext("the secret must be %(min)s to %(max)s printable characters")
            % {"min": MIN_SECRET, "max": MAX_SECRET},
            field="secret",
        )
    return secret


# --- the outbox: what happened, written with it ----------------------------------------------------


def match_events_announce(
    *, match: Match, events_appended: list[MatchEvent], projection: MatchProjection | None = None
) -> list[Delivery]:
    """Deliveries for what a command's events did to a season match (inside its transaction).
    ``projection``: the match's read model as the command left it (``CommandResult.projection``);
    read when not given (a record filed into a season: ``season_match_announce``)."""
    where = SeasonMatch.objects.filter(match_id=match.pk).values_list("season_id", "season__league__club_id").first()
    if where is None:
        return []  # not a season match: no club, no webhooks
    season_id, club_id = where
    endpoints = selectors.listening([club_id])
    if not any(events.MATCH_EVENT_TYPES.intersection(e.event_types) for e in endpoints):
        return []
    if projection is None:
        summary, snapshot = MatchProjection.objects.filter(pk=match.pk).values_list("summary", "snapshot").get()
    else:
        summary, snapshot = projection.summary, projection.snapshot
    happened = events.announcements(
        status=match.status,
        dealing=match.dealing,
        events=events_appended,
        summary=summary,
        deal_in_play=snapshot.get("deal") is not None,
    )
    if not happened:
        return []
    common = {"match": str(match.pk), "season": season_id, "version": match.version, "players": _players(match)}
    return deliveries_enqueue(
        endpoints=endpoints,
        happened=[(type, {**common, **data}) for type, data in happened],
        at=events_appended[-1].created_at,
    )


def season_match_announce(*, season_match: SeasonMatch) -> list[Delivery]:
    """A match that joins a season with events already played (a record filed into it) is
    announced as if its events had just been appended: each finished deal, then its end."""
    match = season_match.match  # as the filing service holds it (no query)
    if match.version <= 1:
        return []  # only match_created: nothing to tell yet
    logged = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    return match_events_announce(match=match, events_appended=logged)


def standings_announce(*, season_ids: Iterable[int]) -> list[Delivery]:
    """``standings.updated`` for each season a recompute rewrote (inside its transaction)."""
    seasons = list(
        Season.objects.filter(pk__in=list(season_ids))
        .order_by("pk")
        .values_list("pk", "name", "league_id", "league__club_id")
    )
    endpoints = selectors.listening({club_id for *_, club_id in seasons})
    created = []
    for season_id, name, league_id, club_id in seasons:
        data = {
            "season": season_id,
            "name": name,
            "league": league_id,
            "club": club_id,
            "standings": f"/api/v1/seasons/{season_id}/standings/",
        }
        created += deliveries_enqueue(
            endpoints=[e for e in endpoints if e.club_id == club_id], happened=[(events.STANDINGS_UPDATED, data)]
        )
    return created


def _players(match: Match) -> dict[str, str]:
    names = dict(Player.objects.filter(pk__in=match.seat_player_ids()).values_list("pk", "username"))
    return {seat: names[pk] for seat, pk in zip(events.SEATS, match.seat_player_ids())}


def deliveries_enqueue(
    *, endpoints: list[Endpoint], happened: list[tuple[str, dict]], at=None, only: str | None = None
) -> list[Delivery]:
    """One delivery per event per endpoint that subscribed to its type (``only``: this type goes
    to every endpoint given); each is queued once the surrounding transaction commits."""
    now = timezone.now()
    at = at or now
    rows = [
        Delivery(
            endpoint=endpoint,
            event_type=type,
            event_id=event_id,
            payload=data,
            next_attempt_at=now,
            retry_until=at + RETRY_WINDOW,
            created_at=at,
        )
        for type, data, event_id in ((type, data, uuid.uuid4()) for type, data in happened)
        for endpoint in endpoints
        if type == only or type in endpoint.event_types
    ]
    if rows:
        Delivery.objects.bulk_create(rows)
        transaction.on_commit(partial(dispatch, [row.pk for row in rows]))
    return rows


def dispatch(delivery_ids: list[int]) -> None:
    """Queue a send for each delivery (after the commit). Nothing here may fail the request that
    committed them: a broker that is down, or a send that breaks when tasks run in-process,
    leaves the rows pending for the sweep."""
    from .tasks import deliver

    for delivery_id in delivery_ids:
        try:
            deliver.delay(delivery_id)
        except Exception:
            log.exception("could not send webhook delivery %s now; the sweep will", delivery_id)


# --- sending -------------------------------------------------------------------------------------------


def delivery_attempt(*, delivery_id) -> Delivery | None:
    """Send the delivery if it is due and no one else is sending it; None if it was not."""
    delivery = _claim(Delivery.objects.filter(pk=delivery_id))
    return None if delivery is None else _attempt(delivery)


def deliveries_sweep(*, limit: int = SWEEP_BATCH) -> int:
    """Send up to ``limit`` due deliveries, oldest due first; returns how many were attempted."""
    attempted = 0
    while attempted < limit:
        delivery = _claim(Delivery.objects.all())
        if delivery is None:
            break
        _attempt(delivery)
        attempted += 1
    return attempted


def delivery_redeliver(*, actor, endpoint_id, delivery_id) -> Delivery:
    """Send a delivery again now (with the same event id): back to pending, a new 24 h window."""
    endpoint = selectors.endpoint_for_admin(actor=actor, endpoint_id=endpoint_id)
    with transaction.atomic():
        pk = int_id(delivery_id)
        delivery = (
            Delivery.objects.select_for_update().filter(pk=pk, endpoint=endpoint).first() if pk is not None else None
        )
        if delivery is None:
            raise NotFound(
                gettext("webhook %(endpoint_pk)s has no delivery %(delivery_id)s")
                % {"endpoint_pk": endpoint.pk, "delivery_id": delivery_id}
            )
        now = timezone.now()
        delivery.status, delivery.next_attempt_at, delivery.retry_until = (
            Delivery.Status.PENDING,
            now,
            now + RETRY_WINDOW,
        )
        delivery.save(update_fields=["status", "next_attempt_at", "retry_until"])
        transaction.on_commit(partial(dispatch, [delivery.pk]))
    delivery.refresh_from_db()
    return delivery


def backoff(attempts: int, rng: random.Random | None = None) -> datetime.timedelta:
    """The wait after the ``attempts``-th failure: 30 s, 1 min, 2 min, … capped at 4 h, ± 20 %."""
    delay = min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempts - 1))
    return datetime.timedelta(seconds=delay * (1 + (rng or random).uniform(-BACKOFF_JITTER, BACKOFF_JITTER)))


def _claim(deliveries) -> Delivery | None:
    now = timezone.now()
    with transaction.atomic():
        delivery = (
            deliveries.select_for_update(skip_locked=True, of=("self",))
            .select_related("endpoint")
            .filter(status=Delivery.Status.PENDING, next_attempt_at__lte=now)
            .order_by("next_attempt_at", "pk")
            .first()
        )
        if delivery is not None:
            Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=now + LEASE)
    return delivery


def _attempt(delivery: Delivery) -> Delivery:
    try:
        status_code, error = _send(delivery)
    except Exception as exc:  # a fault of ours: counted as a failed attempt, retried like one
        log.exception("webhook delivery %s broke", delivery.pk)
        status_code, error = None, f"internal error: {type(exc).__name__}"
    now = timezone.now()
    delivery.attempts += 1
    delivery.last_status_code, delivery.last_error = status_code, error
    if not error:
        delivery.status, delivery.delivered_at = Delivery.Status.SUCCEEDED, now
    else:
        delivery.next_attempt_at = now + backoff(delivery.attempts)
        if delivery.next_attempt_at >= delivery.retry_until or error == DISABLED:
            delivery.status = Delivery.Status.FAILED
    Delivery.objects.filter(pk=delivery.pk).update(
        attempts=delivery.attempts,
        last_status_code=status_code,
        last_error=error,
        status=delivery.status,
        delivered_at=delivery.delivered_at,
        next_attempt_at=delivery.next_attempt_at,
    )
    log.info(
        "webhook delivery %s (%s) to webhook %s: %s",
        delivery.pk,
        delivery.event_type,
        delivery.endpoint_id,
        error or f"delivered ({status_code})",
    )
    return delivery


DISABLED = "the webhook is disabled"


def _send(delivery: Delivery) -> tuple[int | None, str]:
    """POST the delivery; its status code (None: no answer) and the error ("" on success)."""
    endpoint = delivery.endpoint
    if not endpoint.active and delivery.event_type != events.PING:
        return None, DISABLED
    try:
        target = addresses.resolve(endpoint.url)
    except addresses.UnsafeURL as exc:
        return None, f"refused: {exc}"
    body = signing.body(
        event_id=delivery.event_id, type=delivery.event_type, created_at=delivery.created_at, data=delivery.payload
    )
    headers = {
        "X-Kierki-Event": delivery.event_type,
        "X-Kierki-Delivery": str(delivery.event_id),
        "X-Kierki-Signature": signing.signature(endpoint.secret, body, int(timezone.now().timestamp())),
    }
    try:
        answer = transport.post(target, body, headers)
    except httpx.HTTPError as exc:  # the address connected to is ours to know: the admin reads the host
        return None, f"{type(exc).__name__}: {exc}".replace(target.address.split("%", 1)[0], target.host)[:500]
    if 200 <= answer.status_code < 300:
        return answer.status_code, ""
    return answer.status_code, f"HTTP {answer.status_code}: {answer.excerpt}".strip()
