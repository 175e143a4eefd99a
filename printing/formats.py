"""How numbers, dates, times and people's names are written for people to read, in the reader's
language: one module for the pages (``web_tags``' filters call it) and the PDFs
(``scoring.printouts``), so a page and its print never disagree (issue 25, item 2).

- numbers: the language's decimal separator (a comma in Polish) and the real minus sign U+2212,
  never a hyphen; points and balances show their sign;
- dates and times: in ``settings.TIME_ZONE`` (Europe/Warsaw), whatever zone the request runs in
  (the API's PDFs run under UTC), in the language's long form ("3 grudnia 2026, 19:05");
- people: by display name (the player profile's name, not the account's username), listed in
  Polish alphabetical order (``name_key``: Ł after L, Ż and Ź after Z, "Jędrzej" before "Józef").
"""

from __future__ import annotations

import datetime
import re
import unicodedata
import zoneinfo
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext

MINUS = "\u2212"

# The Polish alphabet in its order; a letter outside it sorts as its base letter (é as e).
ALPHABET = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"
RANK = {letter: index for index, letter in enumerate(ALPHABET)}


def number(value: Any, places: int = 0) -> str:
    """12, 12,50, −0,4: ``places`` decimals with the language's separator, a real minus sign."""
    if value is None or value == "":
        return ""
    value = float(value) if places else int(value)
    shown = number_format(abs(value), places) if places else str(abs(value))
    return f"{MINUS}{shown}" if value < 0 and shown.strip("0,.") else shown


def signed(value: Any, places: int = 0) -> str:
    """+12, 0, −26, +8,07: like ``number`` with the sign always shown (points, balances)."""
    shown = number(value, places)
    if not shown or shown.startswith(MINUS) or not shown.strip("0,."):
        return shown
    return f"+{shown}"


def local_time(moment: datetime.datetime) -> datetime.datetime:
    """``moment`` in the club's zone (``settings.TIME_ZONE``), not the request's."""
    return timezone.localtime(moment, zoneinfo.ZoneInfo(settings.TIME_ZONE))


def long_date(day: datetime.date | datetime.datetime | None) -> str:
    """3 grudnia 2026 (Dec. 3, 2026 in English); a moment is first put in Warsaw time."""
    if day is None:
        return ""
    if isinstance(day, datetime.datetime):
        day = local_time(day).date()
    return date_format(day, "DATE_FORMAT")


def long_datetime(moment: datetime.datetime | None) -> str:
    """3 grudnia 2026 19:05: a moment in Warsaw time (unlabelled: the club's local time)."""
    if moment is None:
        return ""
    return date_format(local_time(moment), "DATETIME_FORMAT")


def name_key(name: str) -> tuple:
    """A sort key putting names in Polish alphabetical order, case aside (a small table of the 35
    letters instead of ICU or the C library's locales, which a server may not have)."""
    folded = unicodedata.normalize("NFC", name.casefold())
    return tuple(_letter_rank(ch) for ch in folded), name


def _letter_rank(ch: str) -> tuple[int, int]:
    if ch in RANK:
        return 2, RANK[ch]
    base = unicodedata.normalize("NFD", ch)[0]
    if base in RANK:
        return 2, RANK[base]
    if ch.isdigit():
        return 1, int(ch) if ch.isascii() else 0
    return (0, 0) if not ch.isalnum() else (3, ord(ch))


def by_name(items, name=lambda item: item) -> list:
    """``items`` in Polish alphabetical order of ``name(item)``."""
    return sorted(items, key=lambda item: name_key(str(name(item))))


def person(who: Any) -> str:
    """A person as others read him: a player profile's name, or the account's profile's name
    (a claimed invitation keeps the club's name for the member), else the account's username; an
    erased person (``accounts.erasure`` stores "erased player #N") in the reader's language."""
    if who is None:
        return ""
    if hasattr(who, "get_username"):  # an account: its profile's name when it has one
        profile = getattr(who, "player", None)
        who = profile.username if profile is not None else who.get_username()
    name = str(who)
    erased = ERASED_NAME.fullmatch(name)
    return name if erased is None else gettext("erased player no. %(number)s") % {"number": erased.group(1)}


ERASED_NAME = re.compile(r"erased player #(\d+)")

# The deal kinds keep their Polish names in every language (RULES.md calls them so).
KIND_LABELS = {"rozbojnik": "rozbójnik", "odgrywka": "odgrywka"}


def kind_label(kind: str) -> str:
    """A deal kind as people read it: ``rozbojnik`` (the enum value, a code) → ``rozbójnik``."""
    return KIND_LABELS.get(kind, kind)
