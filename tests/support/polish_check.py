"""The check every Polish page of the tests goes through (issue 25, item 5): a page read in Polish
shows no English status code, no username where the person has a display name, no decimal point,
no ISO date, no hyphen for a minus, and none of the pages' English words.

``polish_problems(text, usernames=...)`` lists what is wrong with a page's text (empty: nothing);
``assert_polish(...)`` fails with that list. ``page_text(html)`` is the text a reader sees in a
rendered page's ``<main>`` (no markup, scripts or attribute values), for the Django test client's
responses; a browser test passes ``page.inner_text("main")``."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Status and enum codes people must never read raw (they stay English in the API and the data).
STATUS_CODES = re.compile(
    r"\b(in_progress|finished|abandoned|filed|pending|claimed|expired|declined|awaiting|confirmed|withdrawn|"
    r"open|closed|ruled|recorded|rozbojnik|kings_jacks|king_of_hearts|last_tricks)\b"
)
# English words of the pages' msgids: none may show on a Polish page.
ENGLISH = re.compile(  # a word on its own: "kierki-match/1", a format's name, is no English prose
    r"(?<![\w/-])(the|and|of|round|rounds|evening|evenings|season|table|tables|players?|seat|seated|results?|close|save|"
    r"present|withdraw|sign|guests?|arbiter|scorer|member|winner|champion|leader|deal|deals|match|matches|"
    r"points|balance|standings|score|sheet|tricks|hearts|queens|none|never)(?![\w/-])",
    re.IGNORECASE,
)
DECIMAL_POINT = re.compile(r"\d\.\d")
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
HYPHEN_MINUS = re.compile(r"(?<![\w\-–/])-\d")  # "-5" for "−5"; a range "1-13" or "R/O" is no minus
UTC = re.compile(r"\bUTC\b")
URL = re.compile(r"https?://\S+")


def polish_problems(text: str, usernames: dict[str, str] | None = None, accounts: tuple[str, ...] = ()) -> list[str]:
    """What a Polish page's ``text`` shows that it must not. ``usernames``: {username: display
    name} of the accounts whose display name differs from their username; ``accounts``: usernames
    a page shows on purpose as the account's name (the members page's "Konto" column)."""
    text = URL.sub(" ", text)  # an address (the QR code's, 127.0.0.1:8000/matches/…) is no prose
    for account in accounts:
        text = re.sub(rf"(?<![\w.@-]){re.escape(account)}(?![\w.@-])", "", text)
    problems = []
    for label, pattern in (
        ("status code", STATUS_CODES),
        ("English", ENGLISH),
        ("decimal point", DECIMAL_POINT),
        ("ISO date", ISO_DATE),
        ("hyphen for a minus", HYPHEN_MINUS),
        ("UTC on Warsaw time", UTC),
    ):
        problems += [f"{label}: {found.group(0)!r} in …{_around(text, found)}…" for found in pattern.finditer(text)]
    for username, name in (usernames or {}).items():
        if username != name and re.search(rf"(?<![\w.@-]){re.escape(username)}(?![\w.@-])", text):
            problems.append(f"username {username!r} shown instead of {name!r}")
    return problems


def assert_polish(text: str, where: str = "", usernames: dict[str, str] | None = None, accounts=()) -> None:
    problems = polish_problems(text, usernames, tuple(accounts))
    assert not problems, f"{where}: not Polish as a club writes it:\n" + "\n".join(problems)


def _around(text: str, found: re.Match) -> str:
    return text[max(0, found.start() - 30) : found.end() + 30].replace("\n", " ")


class _MainText(HTMLParser):
    """The text inside ``<main>``, scripts and styles left out."""

    def __init__(self):
        super().__init__()
        self.depth, self.skip, self.parts = 0, 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "main" or self.depth:
            self.depth += tag not in VOID
        if tag in ("script", "style", "template"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self.skip -= 1
        if self.depth and tag not in VOID:
            self.depth -= 1
            self.parts.append(" ")

    def handle_data(self, data):
        if self.depth and not self.skip:
            self.parts.append(data)


VOID = {"br", "hr", "img", "input", "meta", "link", "col", "area", "base", "wbr", "source", "track", "embed"}


def page_text(html: str | bytes) -> str:
    """What a reader sees in a rendered page's ``<main>``."""
    parser = _MainText()
    parser.feed(html.decode() if isinstance(html, bytes) else html)
    return " ".join("".join(parser.parts).split())
