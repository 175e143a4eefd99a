"""Live updates: Server-Sent Events of a match and of a player's own feed, and the long-poll of
``events/``. Async Django views, served by the ASGI server (``uvicorn config.asgi:application``).

- ``GET /api/v1/matches/{id}/stream/``: the match's events as the viewer may see them (the JSON of
  ``events/``), ``id:`` = ``seq``, ``event:`` = the type; from ``Last-Event-ID`` (or ``?after=``)
  on, replayed from the database; ``event: end`` and the connection closes once the match is
  over; a reconnect after that gets ``204`` (which tells an ``EventSource`` to stop).
- ``GET /api/v1/me/stream/``: ``games.read.live``'s notices for the matches the user sits in, ``id:`` =
  the causing event's primary key.
- ``GET /api/v1/matches/{id}/events/?after=N&wait=S``: waits up to S seconds (≤ 30) for an event
  after N, then the ``events`` action of ``api.views`` answers, exactly as without ``wait``.
  Likewise ``state/?after=V&wait=S`` and a command's ``?wait=S`` (its ``next_move``).

Only the ASGI server waits. Under WSGI (gunicorn's sync workers) a wait would hold a worker, so
there a long-poll answers at once, as without ``wait``, with ``Long-Poll: unavailable`` (a
command's ``next_move`` is null), as the streams answer ``501`` there (issue 30, finding 2).

How new events are noticed: one ``_Watch`` per event loop (per uvicorn worker). On PostgreSQL
every command ``NOTIFY``s the match it moved (``games.read.live.moved_notice``, in the statement that
appends its events) and the watch ``LISTEN``s on one connection of its own: it wakes the clients of that
match and the feeds of its seated players, who then read their events; every
``LIVE_RECHECK_SECONDS`` it also re-reads the versions of the watched matches, as a safety net.
Elsewhere (SQLite, ``LIVE_NOTIFY=false``) it reads those versions every ``LIVE_POLL_INTERVAL_MS``
while anyone waits (one indexed query) and wakes the clients whose match moved. Either way, a
few queries per client per event — never a query per client per interval. Every database
burst runs in a worker thread and closes its connection when done: no waiting client holds a
database connection (a pooler such as PgBouncer makes the reconnects cheap), nor a worker —
only the parked thread Django keeps for each open request under ASGI.

Authentication as in the rest of the API (``Authorization: Token …`` or a session); tokens in the
query string are refused on purpose (they end up in access logs, proxies and browser history).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings

from games.domain.exceptions import CommandError, InvalidInput, quoted
from games.domain.ids import bounded_int
from games.read import live, selectors

from . import oauth_scopes
from . import serializers as s
from .problems import exception_json, problem, problem_json
from .views import MatchViewSet

log = logging.getLogger(__name__)

RETRY_MS = 3000  # the SSE `retry:` an EventSource waits before reconnecting
MAX_WAIT = 30  # long-poll seconds (the events action validates `wait` with the same bound)
EVENT_STREAM = "text/event-stream"
_render = JSONRenderer().render


# --- the views ---------------------------------------------------------------------------------


def _sse_view(opens: Callable) -> Callable:
    """An SSE endpoint: GET under ASGI only (else the problem of ``_refuse``); ``opens`` gets the
    caller and the resume point and returns the response; a problem raised until then (a bad
    resume point, no authentication, no such match) is answered as problem+json."""

    @csrf_exempt  # read-only: any other method gets the 405 problem of _refuse, not Django's CSRF page
    @functools.wraps(opens)
    async def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = _refuse(request)
        if refused is not None:
            return refused
        try:
            after = _resume_point(request)
            user = await _db(_authenticate, request)
            return await opens(request, *args, user=user, after=after, **kwargs)
        except Exception as exc:  # noqa: BLE001 - problems answered, the rest re-raised
            return _problem_or_raise(exc)

    return view


@_sse_view
async def match_stream(request: HttpRequest, pk: str, *, user, after: int | None) -> HttpResponse:
    batch = await _db(live.match_batch, match_id=pk, user=user, after=after or 0)
    if batch.over and not batch.events:
        return HttpResponse(status=204)  # nothing more will come: EventSource stops reconnecting
    return _event_stream(_match_frames(request, pk, user, after or 0, batch))


@_sse_view
async def me_stream(request: HttpRequest, *, user, after: int | None) -> HttpResponse:
    feed = await _db(live.feed_start, user=user, after_id=after)
    player_id = await _db(live.player_id, user=user)
    return _event_stream(_feed_frames(user, player_id, feed, after or 0))


_events_action = MatchViewSet.as_view({"get": "events"})
_state_action = MatchViewSet.as_view({"get": "state"})


async def _wait_then(action: Callable, request: HttpRequest, pk: str, waiter: Callable) -> HttpResponse:
    """With ``?wait=S`` first wait (at most S seconds, ``waiter`` says for what) past ``after``; any
    error is left for the action to answer, so that the response (body, ETag, problem) is the
    action's in every case."""
    wait = _int(request.GET.get("wait"))
    after = _int(request.GET.get("after", "0"))
    waits = request.method == "GET" and wait and 0 < wait <= MAX_WAIT and after is not None and after >= 0
    if waits and _under_wsgi(request):
        return _not_waited(await sync_to_async(action)(request, pk=pk))
    if waits:
        try:
            user = await _db(_authenticate, request)
            await waiter(pk, user, after, wait)
        except (CommandError, exceptions.APIException):
            pass
    return await sync_to_async(action)(request, pk=pk)


def _under_wsgi(request: HttpRequest) -> bool:
    """A synchronous worker serves this request: waiting here would hold it (issue 30, finding 2)."""
    return not isinstance(request, ASGIRequest)


LONG_POLL_HEADER = "Long-Poll"


def _not_waited(response: HttpResponse) -> HttpResponse:
    """The answer of a long-poll sent to the WSGI server: given at once, without waiting, and says so
    (``Long-Poll: unavailable``; send it to the ASGI server, docs/live-updates.md)."""
    response[LONG_POLL_HEADER] = "unavailable"
    return response


@csrf_exempt  # as DRF's own views: session writes are checked by DRF (this one only reads)
async def events_long_poll(request: HttpRequest, pk: str) -> HttpResponse:
    """Routed ahead of the ``events`` action, which answers once it has waited."""
    return await _wait_then(_events_action, request, pk, _wait_for_event)


@csrf_exempt
async def state_long_poll(request: HttpRequest, pk: str) -> HttpResponse:
    """Routed ahead of the ``state`` action: ``?after=<version>&wait=S`` answers the state once the
    match has moved past ``after``; with ``&until=move`` only once it is the player's move (his
    card, a lead sale to offer in, a deal due, the match over): a bot's one request per card."""
    waiter = _wait_for_move if request.GET.get("until") == "move" else _wait_for_event
    return await _wait_then(_state_action, request, pk, waiter)


# --- SSE -----------------------------------------------------------------------------------------


def _event_stream(frames: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(frames, content_type=EVENT_STREAM)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
    return response


def _frame(data: Any, *, event: str | None = None, id: int | None = None) -> str:
    lines = [] if id is None else [f"id: {id}"]
    if event is not None:
        lines.append(f"event: {event}")
    lines.append("data: " + _render(data).decode())  # compact JSON: one line
    return "\n".join(lines) + "\n\n"


KEEP_ALIVE = ": keep-alive\n\n"


async def _match_frames(request: HttpRequest, pk: str, user, after: int, batch: live.Batch) -> AsyncIterator[str]:
    key = uuid.UUID(pk)  # match_batch has parsed it already
    pace = _Pace()
    yield f"retry: {RETRY_MS}\n\n"
    async with _watching({key: batch.version}) as subscription:
        while True:
            for event in batch.events:
                data = s.EventSerializer(event, context={"request": request}).data  # its version's time form
                yield _frame(data, event=event["type"], id=event["seq"])
                after = event["seq"]
                pace.sent()
            if batch.over and after >= batch.version:
                yield _frame({"status": batch.status, "version": batch.version}, event="end")
                return
            if after >= batch.version:  # caught up: wait for the match to move
                subscription.versions[key] = batch.version
                if not await subscription.wait(pace.remaining()):
                    yield KEEP_ALIVE
                    pace.sent()
            subscription.clear()
            try:
                batch = await _db(live.match_batch, match_id=pk, user=user, after=after)
            except CommandError:  # no longer readable by this user
                return


async def _feed_frames(user, player_id: int | None, feed: live.Feed, cursor: int) -> AsyncIterator[str]:
    """``id:`` is the highest event id covered so far, so that it never goes down (a notice
    repeated on connecting has an older one); each notice's own event id is ``data.id``."""
    pace = _Pace()
    yield f"retry: {RETRY_MS}\n\n"
    async with _watching(dict(feed.seen), user_id=user.pk, player_id=player_id) as subscription:
        while True:
            for notice in feed.notices:
                cursor = max(cursor, notice.id)
                yield _frame({"id": notice.id, "type": notice.type, **notice.data}, event=notice.type, id=cursor)
                pace.sent()
            subscription.versions = dict(feed.seen)
            if not await subscription.wait(pace.remaining()):
                yield KEEP_ALIVE
                pace.sent()
            subscription.clear()
            feed = await _db(live.feed_next, user=user, seen=feed.seen)


class _Pace:
    """A keep-alive comment is due ``LIVE_KEEPALIVE_SECONDS`` after the last bytes sent (wake-ups
    that send nothing do not count: proxies drop idle connections)."""

    def __init__(self):
        self.sent()

    def sent(self) -> None:
        self.last = time.monotonic()

    def remaining(self) -> float:
        return max(0.0, self.last + float(settings.LIVE_KEEPALIVE_SECONDS) - time.monotonic())


# --- long-poll -----------------------------------------------------------------------------------


async def _wait_for_event(pk: str, user, after: int, wait: float) -> None:
    """Return once the match has an event after ``after``, is over, or ``wait`` seconds passed."""
    version, status = await _db(live.match_version, match_id=pk, user=user)
    deadline = time.monotonic() + wait
    key = uuid.UUID(pk)  # match_version has parsed it already
    async with _watching({key: version}) as subscription:
        while version <= after and status == live.IN_PROGRESS:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not await subscription.wait(remaining):
                return
            subscription.clear()
            version, status = await _db(live.match_version, match_id=pk, user=user)
            subscription.versions[key] = version


_COMMAND_ACTIONS = {
    name: MatchViewSet.as_view({"post": name}) for name in ("deals", "plays", "lead_offers", "lead_decision")
}


@csrf_exempt  # DRF checks a session's CSRF token itself, as for its own views
def command_then_wait(request: HttpRequest, pk: str, action: str) -> HttpResponse:
    """Routed ahead of the commands: the command answers as always; with ``?wait=S`` its answer
    also carries ``next_move``, the actor's state once it is his move again (at most S seconds
    later; null when ``state`` already is his move, or nothing came): a bot's one request per card.
    The wait runs after the command's transaction, outside what an Idempotency-Key stores; without
    ``wait`` this stays a plain synchronous view (no event loop on the hot path). Under WSGI it
    never waits (``Long-Poll: unavailable``, ``next_move`` null)."""
    response = _COMMAND_ACTIONS[action](request, pk=pk)
    data = getattr(response, "data", None)
    if response.status_code != 201 or not isinstance(data, dict) or "state" not in data:
        return response
    wait = _int(request.GET.get("wait"))
    next_move = None
    if wait and 0 < wait <= MAX_WAIT and not selectors.is_viewers_move(data["state"]):
        if _under_wsgi(request):
            response.data = {**data, "next_move": None}
            return _not_waited(response)
        next_move = async_to_sync(_next_move)(request, pk, data["version"], wait)
    response.data = {**data, "next_move": next_move}
    return response


async def _next_move(request: HttpRequest, pk: str, after: int, wait: float) -> dict | None:
    try:
        user = await _db(_authenticate, request)
        await _wait_for_move(pk, user, after, wait)
        version, moved, view = await _db(_viewers_move, pk, user)
    except (CommandError, exceptions.APIException):
        return None
    return view if moved and version > after else None


async def _wait_for_move(pk: str, user, after: int, wait: float) -> None:
    """Return once the match moved past ``after`` to a state that is the viewer's move
    (``selectors.is_viewers_move``), or ``wait`` seconds passed."""
    deadline = time.monotonic() + wait
    while True:
        await _wait_for_event(pk, user, after, max(0.0, deadline - time.monotonic()))
        version, moved, _ = await _db(_viewers_move, pk, user)
        if moved or version <= after or time.monotonic() >= deadline:
            return
        after = version


def _viewers_move(pk: str, user) -> tuple[int, bool, dict]:
    """The match's version, whether it is the user's move, and his state (``GET state/``'s body)."""
    match, viewer = selectors.match_get(match_id=pk, user=user)
    view = s.StateSerializer(selectors.match_state(match=match, viewer=viewer)).data
    return view["version"], selectors.is_viewers_move(view), view


# --- the watcher -----------------------------------------------------------------------------------


class Subscription:
    """A client waiting for some matches (``versions``: match → the version it has read) and, for a
    player's feed (``user_id``, ``player_id``), for any new match in progress that seats him."""

    def __init__(self, versions: dict, user_id: int | None = None, player_id: int | None = None):
        self.versions = versions
        self.user_id = user_id
        self.player_id = player_id
        self._moved = asyncio.Event()

    def wake(self) -> None:
        self._moved.set()

    def clear(self) -> None:
        self._moved.clear()

    async def wait(self, timeout: float) -> bool:
        """True when woken, False after ``timeout`` seconds."""
        try:
            await asyncio.wait_for(self._moved.wait(), timeout)
        except TimeoutError:
            return False
        return True


class _Watch:
    """One per event loop; runs only while someone subscribes. With notifications (PostgreSQL) it
    holds one listening connection and wakes the clients of each match named, and re-reads the
    versions only every ``LIVE_RECHECK_SECONDS`` (a notification lost, a listener reconnecting);
    without, it re-reads them every ``LIVE_POLL_INTERVAL_MS``."""

    def __init__(self, notified: bool):
        self.notified = notified
        self.subscriptions: set[Subscription] = set()
        self.seated: dict[Any, frozenset[int]] = {}  # matches in progress → their users (feeds only)
        self.task: asyncio.Task | None = None

    async def run(self, loop: asyncio.AbstractEventLoop) -> None:
        failing = False
        listener = loop.create_task(self.listen()) if self.notified else None
        interval = settings.LIVE_RECHECK_SECONDS if self.notified else settings.LIVE_POLL_INTERVAL_MS / 1000
        try:
            while self.subscriptions:
                await asyncio.sleep(interval)
                if not self.subscriptions:
                    break
                try:
                    await self.tick()
                    failing = False
                except Exception:  # a database hiccup: say so once, try again next time
                    if not failing:
                        log.exception("live updates: reading the match versions failed; retrying")
                    failing = True
        finally:
            if listener is not None:
                listener.cancel()
            if _WATCHES.get(loop) is self:
                del _WATCHES[loop]

    async def listen(self) -> None:
        """LISTEN on one connection of its own, reconnecting after a failure. Once listening, every
        client is woken to read again: what committed while nobody listened is not lost."""
        import psycopg  # only on PostgreSQL

        failing = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(_listen_conninfo(), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {live.CHANNEL}")
                    failing = False
                    self.wake_all()
                    async for notify in conn.notifies():
                        self.moved(*live.moved_parse(notify.payload))
            except asyncio.CancelledError:
                raise
            except Exception:  # the server restarting, a network cut: the re-check covers the gap
                if not failing:
                    log.exception("live updates: the notification listener failed; reconnecting")
                failing = True
            await asyncio.sleep(1)

    def moved(self, match_id: uuid.UUID, player_ids: frozenset[int]) -> None:
        """Wake the clients of ``match_id``, and the feeds of the players seated in it."""
        for subscription in list(self.subscriptions):
            if match_id in subscription.versions or subscription.player_id in player_ids:
                subscription.wake()

    def wake_all(self) -> None:
        for subscription in list(self.subscriptions):
            subscription.wake()

    async def tick(self) -> None:
        subscriptions = list(self.subscriptions)
        watched = {pk for subscription in subscriptions for pk in subscription.versions}
        feeds = any(subscription.user_id is not None for subscription in subscriptions)
        rows = await _db(live.match_versions, watched, in_progress=feeds)
        live_matches = set()
        if feeds:
            live_matches = {pk for pk, (_, status) in rows.items() if status == live.IN_PROGRESS}
            unknown = live_matches - self.seated.keys()
            if unknown:
                self.seated.update(await _db(live.seated_users, unknown))
            self.seated = {pk: users for pk, users in self.seated.items() if pk in live_matches}
        for subscription in subscriptions:
            if any(pk in rows and rows[pk][0] != version for pk, version in subscription.versions.items()):
                subscription.wake()
            elif subscription.user_id is not None and any(
                pk not in subscription.versions and subscription.user_id in self.seated.get(pk, ())
                for pk in live_matches
            ):
                subscription.wake()


_WATCHES: dict[asyncio.AbstractEventLoop, _Watch] = {}


def waiting_versions(match_id: Any) -> list[int]:
    """The version of ``match_id`` each client waiting on it in this process has read (its event
    loops' subscriptions): the condition a test waits for before it moves the match on."""
    key = uuid.UUID(str(match_id))
    watches = list(_WATCHES.values())
    return [s.versions[key] for watch in watches for s in list(watch.subscriptions) if key in s.versions]


def _listen_conninfo() -> str:
    """The default database's address, as psycopg takes it (the listener bypasses Django: it keeps
    its connection open for as long as anyone waits); ``LIVE_LISTEN_URL`` if set, to go round a
    transaction-mode pooler."""
    from psycopg.conninfo import make_conninfo

    if settings.LIVE_LISTEN_URL:
        return make_conninfo(settings.LIVE_LISTEN_URL, connect_timeout=5)

    params = connection.settings_dict
    values = {
        "dbname": params["NAME"],
        "user": params["USER"],
        "password": params["PASSWORD"],
        "host": params["HOST"],
        "port": params["PORT"],
    }
    return make_conninfo(**{key: value for key, value in values.items() if value not in (None, "")}, connect_timeout=5)


@asynccontextmanager
async def _watching(
    versions: dict, user_id: int | None = None, player_id: int | None = None
) -> AsyncIterator[Subscription]:
    loop = asyncio.get_running_loop()
    watch = _WATCHES.get(loop)
    if watch is None:
        watch = _WATCHES[loop] = _Watch(notified=live.notifying())
    subscription = Subscription(versions, user_id, player_id)
    watch.subscriptions.add(subscription)
    if watch.task is None or watch.task.done():
        watch.task = loop.create_task(watch.run(loop))
    try:
        yield subscription
    finally:
        watch.subscriptions.discard(subscription)


# --- plumbing --------------------------------------------------------------------------------------


async def _db(function: Callable, /, *args, **kwargs):
    """Run a synchronous database function in a worker thread; its connection is closed when it
    returns, so that nothing holds one while a client waits."""
    return await sync_to_async(_closing(function), thread_sensitive=False)(*args, **kwargs)


def _closing(function: Callable) -> Callable:
    @functools.wraps(function)
    def run(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    return run


def _authenticate(request: HttpRequest):
    """The user, by the API's own authentication classes (token header, session); else the 401 DRF
    would answer."""
    drf_request = Request(request, authenticators=[cls() for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES])
    user = drf_request.user
    if user is None or not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    oauth_scopes.check_scope(drf_request.auth, oauth_scopes.STREAM_SCOPE)  # a Bearer token reads with matches:read
    return user


def _refuse(request: HttpRequest) -> HttpResponse | None:
    if request.method != "GET":
        response = exception_json(exceptions.MethodNotAllowed(request.method))
        response["Allow"] = "GET"
        return response
    if not isinstance(request, ASGIRequest):
        body = problem(
            "streaming_unavailable",
            detail=gettext(
                "Event streams are served by the ASGI server (uvicorn config.asgi:application); this one runs the "
                "API under WSGI."
            ),
        )
        return problem_json(body)
    return None


def _resume_point(request: HttpRequest) -> int | None:
    """``Last-Event-ID`` (an EventSource reconnecting), else ``?after=``, else None."""
    for name, raw in (("Last-Event-ID", request.headers.get("Last-Event-ID")), ("after", request.GET.get("after"))):
        if raw is None or raw.strip() == "":
            continue
        value = _int(raw.strip())
        if value is None or value < 0:
            raise InvalidInput(
                gettext("%(name)s must be a whole number, an event id; got %(raw)s")
                % {"name": name, "raw": quoted(raw)},
                field=name,
            )
        return value
    return None


def _int(raw: str | None) -> int | None:
    return None if raw is None else bounded_int(raw)


def _problem_or_raise(exc: Exception) -> HttpResponse:
    if isinstance(exc, (CommandError, exceptions.APIException)):
        return exception_json(exc)
    raise exc
