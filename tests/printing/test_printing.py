"""The PDFs read back: text extraction (the Polish letters come out), page counts, and what
each document holds — from plain data, as the evenings' seating plugs in."""

import io

import pytest
from pypdf import PdfReader

from games.engine import Ruleset
from games.engine.scoring import LAST_TRICK_PENALTY, ODGRYWKA_TRICK_POINTS, POOL
from printing import render_score_sheet, render_seating, render_standings, render_summary
from printing.reminder import point_reminder

PLAYERS = {"N": "Łódź Ścibor", "E": "Żaneta Ćwik", "S": "Óla Ńa", "W": "Źdźbło Ęą"}


def read(pdf: bytes, layout: bool = False) -> tuple[str, int]:
    """The text (``layout``: table rows kept on one line each) and the page count."""
    reader = PdfReader(io.BytesIO(pdf))
    mode = "layout" if layout else "plain"
    return "\n".join(page.extract_text(extraction_mode=mode) for page in reader.pages), len(reader.pages)


def blank(options=None, **extra) -> bytes:
    ruleset = Ruleset.from_options(options or {})
    return render_score_sheet(
        title="Score sheet",
        players=PLAYERS,
        first_dealer="E",
        regular_deals=[kind.letter for kind in ruleset.regular_deals],
        reminder=point_reminder(ruleset),
        **extra,
    )


def test_the_polish_letters_come_out_of_the_pdf():
    text, pages = read(blank(subtitle="Klub w Łodzi"))

    assert pages == 1
    for name in PLAYERS.values():
        assert name in text
    assert "Łódź" in text and set("ąćęłńóśźż") <= set(text.lower())


def test_the_font_is_embedded():
    reader = PdfReader(io.BytesIO(blank()))
    fonts = [font.get_object() for font in reader.pages[0]["/Resources"]["/Font"].get_object().values()]
    embedded = {
        str(font["/BaseFont"]).split("+")[-1]
        for font in fonts
        if "/FontDescriptor" in font and "/FontFile2" in font["/FontDescriptor"].get_object()
    }
    assert {"DejaVuSans", "DejaVuSans-Bold"} <= embedded  # subsets of the TTFs, in the file


def test_a_blank_sheet_lists_the_regular_deals_then_room_for_compensating_deals():
    text, _ = read(blank(compensating_rows=5), layout=True)
    lines = [line.split() for line in text.splitlines()]

    regular = [(line[0], line[1]) for line in lines if len(line) >= 2 and line[0].isdigit() and line[1] in "RO"]
    assert regular == [("1", "R"), ("2", "R"), ("3", "R"), ("4", "R"), ("5", "O"), ("6", "O"), ("7", "O"), ("8", "O")]
    assert text.count("R/O *") == 5


def test_a_leagues_own_regular_deals_are_printed():
    text, _ = read(blank({"regular_deals": ["R", "O", "R"]}), layout=True)
    lines = [line.split() for line in text.splitlines()]
    assert [(line[0], line[1]) for line in lines if len(line) >= 2 and line[0].isdigit() and line[1] in "RO"] == [
        ("1", "R"),
        ("2", "O"),
        ("3", "R"),
    ]


def test_the_point_values_come_from_the_engine_and_the_ruleset():
    reminder = " ".join(point_reminder(Ruleset.from_options({"last_tricks": [7, 13]})))

    assert f"{LAST_TRICK_PENALTY} more for tricks 7 and 13" in reminder  # R15, the league's option
    assert f"{ODGRYWKA_TRICK_POINTS} per trick" in reminder  # R17
    assert "5 per queen" in reminder and "16 more for the king of hearts" in reminder  # R14
    assert f"{POOL} per deal" in reminder
    text, _ = read(blank({"last_tricks": [7, 13]}))
    assert "tricks 7 and 13" in " ".join(text.split())


def test_a_filled_sheet_shows_each_deal_the_totals_and_the_winner():
    deals = [
        {
            "number": 1,
            "kind": "rozbojnik",
            "dealer": "N",
            "compensating": False,
            "multiplier": 2,
            "points": {"N": 0, "E": -60, "S": -98, "W": -102},
            "kreski": {"N": 1, "E": 0, "S": 0, "W": 0},
        },
        {
            "number": 2,
            "kind": "odgrywka",
            "dealer": "E",
            "compensating": True,
            "multiplier": 1,
            "points": {"N": 40, "E": 30, "S": 30, "W": 30},
            "kreski": {"N": 0, "E": 0, "S": 0, "W": 0},
        },
    ]
    text, _ = read(blank(deals=deals, totals={"N": 40, "E": -30, "S": -68, "W": -72}, winners=["N"]))

    assert "R ×2" in text and "−98" in text and "0 |" in text  # a kreska as a stroke; a real minus sign
    assert "O*" in text  # a compensating odgrywka
    assert "Total" in text and "−72" in text
    assert "Winner: Łódź Ścibor" in text
    assert "R/O" not in text  # no blank rows on a filled sheet


def test_the_standings_list_every_row_across_pages():
    rows = [
        {
            "position": i,
            "ranked": True,
            "player": f"Gracz {i} Łódź",
            "matches": 10,
            "wins": 3,
            "balance": -i,
            "balance_per_match": -i / 10,
            "kreski": i % 4,
            "max_deals": 0,
            "ordinal": 1.5,
        }
        for i in range(1, 81)
    ]
    rows.append({**rows[0], "position": None, "ranked": False, "player": "Nowy"})

    text, pages = read(render_standings(title="Wiosna — standings", rows=rows))

    assert pages >= 2  # the header row repeats on each page
    assert all(f"Gracz {i} Łódź" in text for i in (1, 40, 80)) and "Nowy" in text


def test_an_empty_standings_sheet_says_so():
    text, pages = read(render_standings(title="Wiosna", rows=[]))
    assert pages == 1 and "No finished matches yet." in text


def test_the_seating_prints_each_round_its_tables_and_who_sits_out():
    rounds = [
        [
            {
                "table": t,
                "seats": {"N": f"a{r}{t}", "E": f"b{r}{t}", "S": f"c{r}{t}", "W": "Łódź" if t == 1 else "x"},
                "first_dealer": "NESW"[r],
            }
            for t in (1, 2, 3)
        ]
        for r in range(4)
    ]

    text, pages = read(render_seating("Wieczór 1 — rozsadzenie", rounds, sit_outs=[["Ździsław"], [], ["Ó"], []]))

    assert "Wieczór 1 — rozsadzenie" in text
    assert all(f"Round {r}" in text for r in (1, 2, 3, 4))
    assert all(f"a{r}{t}" in text for r in range(4) for t in (1, 2, 3))
    assert "Sitting out: Ździsław" in text and "Sitting out: Ó" in text
    assert text.count("Sitting out") == 2


def test_the_summary_prints_its_facts_and_table():
    text, _ = read(
        render_summary(
            title="Jesień — summary",
            facts=[("Champion", "Łucja"), ("Most kreski", "none")],
            rows=[
                {
                    "position": 1,
                    "ranked": True,
                    "player": "Łucja",
                    "matches": 3,
                    "wins": 2,
                    "balance": 120,
                    "balance_per_match": 40.0,
                    "kreski": 1,
                    "max_deals": 1,
                    "ordinal": 3.2,
                }
            ],
        )
    )
    assert "Champion: Łucja" in text and "40.00" in text


def test_a_missing_font_file_is_a_clear_error(settings):
    from printing import fonts

    fonts.registered.cache_clear()
    settings.PDF_FONT = "/nowhere/font.ttf"
    try:
        with pytest.raises(fonts.FontMissing, match="fonts-dejavu-core"):
            blank()
    finally:
        fonts.registered.cache_clear()


def test_the_seating_prints_the_pairs_who_met_before_and_the_repeats_against_their_bound():
    """Issue 24: the organiser sees on paper too which pairs meet again."""
    table = {
        "table": 2,
        "seats": {"N": "Ala", "E": "Bartek", "S": "Celina", "W": "Darek"},
        "first_dealer": "E",
        "met_before": [{"players": ["Ala", "Bartek"], "tonight": 1, "earlier": 2}],
    }

    text, _ = read(render_seating("Wieczór", [[table]], repeats=[(9, 9)]))

    assert "Repeats this evening: 9 (the fewest possible with no pair three times: 9)" in text
    assert "Table 2 · Pairs who played together before: Ala – Bartek (tonight: 1×, earlier evenings: 2×)" in text
