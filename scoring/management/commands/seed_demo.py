"""``manage.py seed_demo [--matches N]``: a demo club a newcomer can call the API against at once.

Creates, when missing: users ``demo-admin`` (staff, club admin), ``demo-scorer`` (club scorer)
and the players ``ala``, ``bartek``, ``celina``, ``darek`` (club members), the club "Demo Club"
(slug ``demo``), its league "Demo League" and the open season "Demo Season"; then files
simulated finished matches (deterministic seeds, the four players rotated over the seats)
through ``season_record_import`` until the season has ``N`` matches, recomputes its standings
and prints each demo user's API token with example ``curl`` commands and the URLs to open
(``--url``, the server's address: ``make run PORT=8123`` passes its own). Its output is that and
nothing else: the log lines and broker warnings of the work it does are silenced (``-v 2`` keeps
them).

Idempotent: a second run creates nothing and prints the same tokens. The demo users get the
password ``kierki-demo`` when they are created: for local use only.
"""

from __future__ import annotations

import contextlib
import logging
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext, ngettext
from rest_framework.authtoken.models import Token

from games.engine import Ruleset
from games.engine.seats import SEATS
from games.engine.simulate import simulate_match
from scoring import recompute, services
from scoring.models import Club, League, Membership, Season, SeasonMatch

DEMO_PASSWORD = "kierki-demo"  # printed and documented: local use only
ADMIN, SCORER = "demo-admin", "demo-scorer"
PLAYERS = ("ala", "bartek", "celina", "darek")
CLUB_NAME, CLUB_SLUG = "Demo Club", "demo"
LEAGUE_NAME, SEASON_NAME = "Demo League", "Demo Season"
SEED = 20260101  # match i is simulated from random.Random(SEED + i)
SERVER = "http://127.0.0.1:8000"  # runserver's default address


class Command(BaseCommand):
    help = "Seed a demo club, league, season of simulated matches and demo users; print their API tokens."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=12, help="matches the demo season should have (12)")
        parser.add_argument("--url", default=SERVER, help=f"the server's address, for the URLs printed ({SERVER})")

    def handle(self, *args, matches=12, url=SERVER, verbosity=1, **options):
        if matches < 0:
            raise CommandError(gettext("--matches must be 0 or more"))
        with quiet_logging() if verbosity < 2 else contextlib.nullcontext():
            club, league, season, users, added = self._seed(matches)
        self._print(club, league, season, users, added, url.rstrip("/"))

    def _seed(self, matches: int):
        users = {name: self._user(name) for name in (ADMIN, SCORER, *PLAYERS)}
        admin = users[ADMIN]
        if not admin.is_staff:
            admin.is_staff = True
            admin.save(update_fields=["is_staff"])
        club = Club.objects.filter(slug=CLUB_SLUG).first() or services.club_create(
            actor=admin, name=CLUB_NAME, slug=CLUB_SLUG
        )
        roles = {ADMIN: Membership.Role.ADMIN, SCORER: Membership.Role.SCORER}
        for name in users:
            role = roles.get(name, Membership.Role.MEMBER)
            if not Membership.objects.filter(club=club, user=users[name], role=role).exists():
                services.membership_set(actor=admin, club_id=club.pk, username=name, role=role)
        league = League.objects.filter(club=club, name=LEAGUE_NAME).first() or services.league_create(
            actor=admin, club_id=club.pk, name=LEAGUE_NAME
        )
        season = Season.objects.filter(league=league, name=SEASON_NAME).first() or services.season_create(
            actor=admin, league_id=league.pk, name=SEASON_NAME
        )

        have = SeasonMatch.objects.filter(season=season).count()
        ruleset = Ruleset.from_options(league.ruleset_options or {})
        for i in range(have, matches):
            seats = {seat.name: PLAYERS[(k + i) % 4] for k, seat in enumerate(SEATS)}
            record = simulate_match(random.Random(SEED + i), ruleset=ruleset, players=seats)
            services.season_record_import(actor=users[SCORER], season_id=season.pk, record=record)
        added = max(matches - have, 0)
        recompute.standings_recompute(season_id=season.pk)
        return club, league, season, users, added

    def _print(self, club, league, season, users, added: int, server: str) -> None:
        out, api = self.stdout.write, f"{server}/api/v1"
        count = SeasonMatch.objects.filter(season=season).count()
        out(
            self.style.SUCCESS(
                ngettext(
                    "demo: club %(club)s (slug %(slug)s), league %(league)s, season %(season)s (id %(id)s): "
                    "%(count)s match (%(added)s added)",
                    "demo: club %(club)s (slug %(slug)s), league %(league)s, season %(season)s (id %(id)s): "
                    "%(count)s matches (%(added)s added)",
                    count,
                )
                % {
                    "club": repr(club.name),
                    "slug": club.slug,
                    "league": repr(league.name),
                    "season": repr(season.name),
                    "id": season.pk,
                    "count": count,
                    "added": added,
                }
            )
        )
        out(
            gettext("demo password for every demo user: %(password)s  (for local use only; never in production)")
            % {"password": DEMO_PASSWORD}
        )
        out(gettext("API tokens:"))
        tokens = {}
        for name, user in users.items():
            tokens[name] = Token.objects.get_or_create(user=user)[0].key
            out(f"  {name:<12} {tokens[name]}")
        out(gettext("open:"))
        out(f"  {server}/  " + gettext("(the landing page; sign in as a demo user)"))
        out(f"  {server}/seasons/{season.pk}/  " + gettext("(the season's standings)"))
        out(f"  {api}/docs/  " + gettext("(the API's documentation)"))
        out(gettext("try:"))
        for name in (ADMIN, PLAYERS[0]):
            out(f'  curl -H "Authorization: Token {tokens[name]}" {api}/seasons/{season.pk}/standings/')
        out(f'  curl -H "Authorization: Token {tokens[ADMIN]}" {api}/')

    @staticmethod
    def _user(username: str):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:
            with transaction.atomic():
                user = User(username=username)
                user.set_password(DEMO_PASSWORD)
                user.save()
        return user


@contextlib.contextmanager
def quiet_logging():
    """No log records below ERROR while seeding: the eager Celery tasks' lines and kombu's broker
    warning would bury the tokens."""
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)
