"""What a user is to a match: the one answer every read that shows hands and every ruling asks.

``role_of(match, user)``, first match wins:

1. ``player``: seated in the match — whatever else he is (staff, a club's arbiter or admin, the
   match's scorer). He sees his own hand and nothing still hidden to him, and never rules on
   the match;
2. ``scorer``: the match's scorer (records a physical table): sees every hand, acts for every
   seat, does not rule on the match he scores — unless he is also staff or an arbiter or admin
   of the match's club and sits at no table (the organiser of a club evening): then he is its
   ``arbiter`` (3.), and still files it as its scorer (``is_scorer``). A scorer of the match's
   club reads it as its ``scorer`` too (he files only the matches he is the scorer of);
3. ``arbiter``: staff, or an arbiter or admin of the club whose season the match belongs to
   (``register_club_role``: ``scoring`` tells which club role a user holds for a match, so this
   module knows no clubs). Reads everything (audit, time travel, every hand), rules on
   disputes, withdraws and reinstates the match;
4. ``nobody``: anyone else, anonymous included — he may not even learn that the match exists.

A seat *awaits consent* (``seats_awaiting_consent``) while the user seated there, seated by
someone else in a match outside a season, has not accepted it (issue 30; ``scoring`` keeps the
invitations and registers the lookup with ``register_seat_consent``): he may act for his own
seat — acting is consenting — but nobody acts or files for it in his place.

An *official* (``is_official``) is staff or a scorer, arbiter or admin of the match's club: a
result filed by an official who is not seated needs no confirmation by the players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from games.domain.exceptions import ArbiterInvolved, NotAllowed
from games.engine import Seat
from games.models import Match

ClubRole = Callable[[Match, Any], "str | None"]
_CLUB_ROLES: list[ClubRole] = []
_CLUB_MATCHES: list[Callable[[Any], Q]] = []

CLUB_SCORER, CLUB_ARBITER, CLUB_ADMIN = "scorer", "arbiter", "admin"  # scoring.models.Membership.Role values
ARBITER_CLUB_ROLES = frozenset({CLUB_ARBITER, CLUB_ADMIN})
OFFICIAL_CLUB_ROLES = frozenset({CLUB_SCORER, CLUB_ARBITER, CLUB_ADMIN})
ROLE_NAMES = ("player", "scorer", "arbiter")  # as the API shows them (the state's and StateAt's ``role``)


def register_club_role(lookup: ClubRole) -> None:
    """Let ``lookup(match, user)`` say which role ``user`` holds in the club of ``match``'s season
    (None: none, or no club). ``scoring`` registers it at start-up."""
    if lookup not in _CLUB_ROLES:
        _CLUB_ROLES.append(lookup)


def register_club_matches(matches: Callable[[Any], Q]) -> None:
    """Let ``matches(user)`` give (as a filter on ``Match``) the matches of the clubs where
    ``user`` is an official who reads them (arbiter, admin, scorer), for the lists (``scoring``
    registers them at start-up, beside its ``register_club_role``)."""
    if matches not in _CLUB_MATCHES:
        _CLUB_MATCHES.append(matches)


_SEAT_CONSENTS: list[Callable[[Match], frozenset[Seat]]] = []


def register_seat_consent(awaiting: Callable[[Match], frozenset[Seat]]) -> None:
    """Let ``awaiting(match)`` give the seats of ``match`` whose users have not accepted them yet
    (``scoring`` registers it at start-up)."""
    if awaiting not in _SEAT_CONSENTS:
        _SEAT_CONSENTS.append(awaiting)


def seats_awaiting_consent(match: Match) -> frozenset[Seat]:
    """The seats nobody but their own user may act for yet (the module docstring)."""
    found: frozenset[Seat] = frozenset()
    for awaiting in _SEAT_CONSENTS:
        found |= awaiting(match)
    return found


def require_consented_seats(match: Match, actor, seats) -> None:
    """Refuse ``actor`` acting or filing for any of ``seats`` that awaits its user's consent,
    unless it is his own seat (``NotAllowed``, naming the first such seat)."""
    awaiting = seats_awaiting_consent(match) - {seat_of(match, actor)}
    for seat in seats:
        if seat in awaiting:
            raise NotAllowed(
                _(
                    "the player seated at %(seat)s has not accepted his seat in this match yet: until he "
                    "does, only he acts for it"
                )
                % {"seat": seat.name}
            )


def arbitrated_matches(user) -> Q:
    """The matches ``user`` reads as an official of their club: arbitrates, or scores for the club
    (staff arbitrate every match: not included)."""
    found = Q(pk__in=[])
    for matches in _CLUB_MATCHES:
        found |= matches(user)
    return found


def club_role(match: Match, user) -> str | None:
    for lookup in _CLUB_ROLES:
        found = lookup(match, user)
        if found is not None:
            return found
    return None


@dataclass(frozen=True)
class Role:
    kind: str  # "player" | "scorer" | "arbiter" | "nobody"
    seat: Seat | None = None  # the user's own seat, when seated (then kind is "player")

    PLAYER, SCORER, ARBITER, NOBODY = "player", "scorer", "arbiter", "nobody"

    @property
    def role(self) -> str:  # the name the API shows
        return self.kind

    @property
    def may_read(self) -> bool:
        return self.kind != self.NOBODY

    @property
    def sees_all_hands(self) -> bool:
        """Every hand, the deal in play's included: never for anyone seated."""
        return self.kind in (self.SCORER, self.ARBITER)

    @property
    def may_rule(self) -> bool:
        return self.kind == self.ARBITER


def seat_of(match: Match, user) -> Seat | None:
    """The seat ``user`` plays at in ``match``, if any."""
    player = getattr(user, "player", None) if user is not None and user.is_authenticated else None
    if player is None:
        return None
    for seat, player_id in zip(Seat, match.seat_player_ids()):
        if player_id == player.id:
            return seat
    return None


def is_scorer(match: Match, user) -> bool:
    return user is not None and user.is_authenticated and match.scorer_id == user.id


def role_of(match: Match, user) -> Role:
    """What ``user`` is to ``match`` (the module docstring gives the order)."""
    if user is None or not user.is_authenticated:
        return Role(Role.NOBODY)
    seat = seat_of(match, user)
    if seat is not None:
        return Role(Role.PLAYER, seat)
    in_club = club_role(match, user)
    arbiter = user.is_staff or in_club in ARBITER_CLUB_ROLES
    if is_scorer(match, user) and not arbiter:
        return Role(Role.SCORER)
    if arbiter:
        # Involvement is a seat (issue 23): the club's arbiter or admin who seated an evening's
        # round scores its matches by default (he files the sheets), yet sits at no table, so he
        # still rules on them — withdraws one, say. A scorer who is no arbiter stays a scorer.
        return Role(Role.ARBITER)
    if in_club == CLUB_SCORER:  # the club's scorers read its season matches (issue 23); filing asks is_scorer
        return Role(Role.SCORER)
    return Role(Role.NOBODY)


def is_official(match: Match, user) -> bool:
    """Staff, or a scorer, arbiter or admin of the match's club (seated or not)."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or club_role(match, user) in OFFICIAL_CLUB_ROLES


def require_arbiter(match: Match, user, role: Role, *, what: str) -> None:
    """Refuse ``what`` (a ruling, a withdrawal) to anyone but an uninvolved arbiter: 403
    ``arbiter_involved`` for an official who plays in or scores the match, ``not_allowed`` for
    the others (outsiders get the caller's 404 first)."""
    if role.may_rule:
        return
    if role.kind in (Role.PLAYER, Role.SCORER) and is_official(match, user):
        raise ArbiterInvolved(
            _("You play in or score this match: an arbiter never makes %(what)s on a match he plays in or scores.")
            % {"what": what}
        )
    raise NotAllowed(_("Only an arbiter or admin of the match's club (or staff) makes %(what)s.") % {"what": what})
