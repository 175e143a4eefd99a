"""Helpers for the language tests: the committed catalogue, a fresh one made from the code, the
visible text of a page, and the English words no Polish page may show."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import polib
import support
from support import PLAYERS, ROOT, SEATS  # noqa: F401 - re-exported

CATALOGUE = ROOT / "locale" / "pl" / "LC_MESSAGES" / "django.po"
COMPILED = CATALOGUE.with_suffix(".mo")
# the apps makemessages reads
SOURCES = ("config", "accounts", "games", "scoring", "webhooks", "api", "web", "printing")

# Words an English message shares with a Polish page on purpose: names, codes, formats, keys.
SHARED_WORDS = {
    "kierki",
    "json",
    "max",
    "home",
    "end",
    "kreski",
    "kreska",
    "zapis",
    "rozbójnik",
    "odgrywka",
    "rozb",
    "odgrywki",
    "odg",
    "api",
    "uuid",
    "null",
    "nul",
    "true",
    "false",
}


def catalogue() -> polib.POFile:
    return polib.pofile(str(CATALOGUE))


def translations(po) -> dict[tuple[str | None, str], object]:
    """``{(context, msgid): msgstr or {plural index: msgstr}}`` of a catalogue (.po or .mo)."""
    return {(e.msgctxt or None, e.msgid): (dict(e.msgstr_plural) if e.msgid_plural else e.msgstr) for e in po}


def fresh_catalogue(tmp: Path) -> polib.POFile:
    """The Polish catalogue as ``makemessages`` makes it now from the code, merged with the
    committed one (as ``make messages`` does), in a copy of the tree: the committed files stay."""
    from django.core.management import call_command
    from django.test import override_settings

    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "migrations"))
    (tmp / "locale" / "pl" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(CATALOGUE, tmp / "locale" / "pl" / "LC_MESSAGES" / "django.po")
    with override_settings(LOCALE_PATHS=[tmp / "locale"]), _cwd(tmp):
        call_command("makemessages", locale=["pl"], no_location=True, no_obsolete=True, verbosity=0)
    return polib.pofile(str(tmp / "locale" / "pl" / "LC_MESSAGES" / "django.po"))


class _cwd:
    def __init__(self, path: Path):
        self.path, self.previous = path, None

    def __enter__(self):
        import os

        self.previous = os.getcwd()
        os.chdir(self.path)

    def __exit__(self, *exc):
        import os

        os.chdir(self.previous)


def english_words() -> set[str]:
    """Every word of the English messages that its Polish translation does not also use."""
    english, polish = set(), set()
    for entry in catalogue():
        for text in (entry.msgid, entry.msgid_plural):
            english |= _words(text)
        for text in (entry.msgstr, *entry.msgstr_plural.values()):
            polish |= _words(text)
    return english - polish - SHARED_WORDS


def _words(text: str) -> set[str]:
    text = re.sub(r"%\(\w+\)[sdrf]|<[^>]+>|`[^`]*`|\{[^}]*\}|\b[a-z0-9]+(?:_[a-z0-9]+)+\b", " ", text or "")
    return {word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)}


class VisibleText(HTMLParser):
    """What a reader sees or hears: text outside <script>/<style>, titles, labels, alt texts and
    button values; and the deal viewer's sentences (#viewer-text), which its script shows."""

    SHOWN = {"title", "aria-label", "alt", "placeholder"}

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.script: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.parts += [value for name, value in attrs.items() if name in self.SHOWN and value]
        if tag in ("script", "style", "textarea"):  # a textarea holds what the reader typed
            self.script = attrs.get("id") or ""

    def handle_endtag(self, tag):
        if tag in ("script", "style", "textarea"):
            self.script = None

    def handle_data(self, data):
        if self.script is None:
            self.parts.append(data)
        elif self.script == "viewer-text":
            self.parts += [re.sub(r"%\(\w+\)s", " ", text) for text in _strings(json.loads(data))]


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    return [value] if isinstance(value, str) else []


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


def english_leftovers(html: str, *, names: set[str] = frozenset()) -> set[str]:
    """The English words (of our messages) a page shows; ``names`` are the page's own data.
    Codes (``not_your_turn``) stay English in every language, as rule ids do."""
    text = re.sub(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b", " ", visible_text(html))
    seen = {word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)}
    return (seen & english_words()) - {name.lower() for name in names}


def sample(name: str) -> dict:
    """A sample record with the four players seated N, E, S, W."""
    return support.sample(name, PLAYERS)


# --- the language tests' rows (tests/i18n/conftest.py's fixtures; test_i18n_pages builds them once) ---


def polish_people(user_model) -> dict:
    """The four players, ``zenon`` (scorer, in the scorers group), ``wanda`` (staff, an
    arbiter of the club) and ``ada`` (the club's admin): names no English word shares."""
    from support.world import people

    return people(user_model, (*PLAYERS, "zenon", "ada"), staff="wanda", scorers=("zenon",))


def ruled_match(users):
    """m1-legal (9 deals, a sale, a kreska) filed by ``zenon``, deal 1's points adjusted by a
    ruling of ``wanda`` at 10:00 UTC on 1 September 2026 (12:00 in Warsaw)."""
    import datetime as dt

    from games.models import Match
    from games.write import disputes, services

    match = services.record_import(actor=users["zenon"], record=sample("m1-legal"))
    first = disputes.dispute_raise(match_id=match.pk, actor=users["ala"], deal=1, statement="źle policzone")
    disputes.ruling_record(
        dispute_id=first.pk,
        actor=users["wanda"],
        ruling="score_adjusted",
        reason="przeliczone",
        points={"N": -10, "E": -40, "S": -40, "W": -40},
    )
    Match.objects.filter(pk=match.pk).update(created_at=dt.datetime(2026, 9, 1, 10, 0, tzinfo=dt.UTC))
    match.refresh_from_db()
    return match


def autumn_season(users):
    """Club ``Klub Kierkowy`` with season ``Jesień`` (from 1 September 2026) of the finished
    m3-legal, its standings computed."""
    import datetime as dt

    from scoring import recompute
    from scoring import services as scoring
    from scoring.models import Season

    club = scoring.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    for name in PLAYERS:
        scoring.membership_set(actor=users["ada"], club_id=club.pk, username=name)
    scoring.membership_set(actor=users["ada"], club_id=club.pk, username="zenon", role="scorer")
    league = scoring.league_create(actor=users["ada"], club_id=club.pk, name="Liga")
    season = scoring.season_create(actor=users["ada"], league_id=league.pk, name="Jesień")
    Season.objects.filter(pk=season.pk).update(start_date=dt.date(2026, 9, 1))
    scoring.season_record_import(actor=users["zenon"], season_id=season.pk, record=sample("m3-legal"))
    recompute.standings_recompute(season_id=season.pk)
    season.refresh_from_db()
    return season
