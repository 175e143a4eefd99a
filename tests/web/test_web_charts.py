"""The SVG builder (web/charts.py): valid XML whatever the names, text escaped, numbers in the
reader's language with a real minus, an accessible name and description, every series told
apart without colour, nothing the Content-Security-Policy refuses, and empty series drawn as an
empty plot rather than an error."""

import math
import xml.etree.ElementTree as ET

from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from web import charts
from web.charts import Bar, Series

SVG = "{http://www.w3.org/2000/svg}"
NASTY = ("<script>alert(1)</script>", "Łucja & Ewa", 'Ola "Q" O\'Hara', "Zoë")  # four: a two-column legend


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [node.text for node in root.iter(f"{SVG}text")]


def lines(**extra) -> str:
    options = {
        "key": "k",
        "title": "Bilans",
        "desc": "Opis",
        "x_labels": ["1.10", "8.10", "15.10"],
        "series": [Series(name, [-12, 3.5, 40]) for name in NASTY],
    }
    return charts.line_chart(**{**options, **extra})


def test_a_line_chart_is_valid_xml_with_its_title_and_description_as_its_accessible_name():
    root = parsed(lines(title="Bilans <po> wieczorach", desc="Ala & Ola"))

    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "k-title k-desc"
    assert root.find(f"{SVG}title").text == "Bilans <po> wieczorach"
    assert root.find(f"{SVG}title").get("id") == "k-title"
    assert root.find(f"{SVG}desc").text == "Ala & Ola"
    assert root.get("viewBox").startswith(f"0 0 {charts.WIDTH} ") and root.get("width") == "100%"


def test_names_like_a_script_tag_or_an_ampersand_are_escaped_not_markup():
    svg = lines()

    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert "Łucja &amp; Ewa" in svg
    root = parsed(svg)
    assert {"<script>alert(1)</script>"[: charts.NAME_CHARS - 1] + "…", "Łucja & Ewa"} <= set(texts(root))
    assert [g.get("data-name") for g in root.iter(f"{SVG}g")] == list(NASTY)
    assert root.find(f".//{SVG}script") is None


def test_numbers_are_written_in_polish_with_a_decimal_comma_and_a_real_minus():
    with translation.override("pl"):
        assert charts.number(-12.5, 1) == "−12,5"
        assert charts.number(3.25, 2, signed=True) == "+3,25"
        assert charts.number(0, signed=True) == "0"
        assert charts.number(-0.04, 1) == "0,0"  # rounds to zero: no minus before it
        root = parsed(lines(x_labels=["1 paź", "8 paź", "15 paź"], series=[Series("a", [-0.5, 0.25, 0.5])]))
    ticks = [label for label in texts(root) if label[0] in "−+0123456789" and "paź" not in label]
    assert ticks == ["−0,5", "0,0", "0,5"]  # the y axis: steps of 0,5
    assert not any("-" in label or "." in label for label in ticks)


def test_numbers_are_written_in_english_with_a_decimal_point_and_the_same_minus():
    with translation.override("en"):
        assert charts.number(-12.5, 1) == "−12.5"
        assert charts.number(1234, signed=True) == "+1234"


def test_each_series_differs_in_dash_pattern_and_marker_not_only_in_colour():
    styles = charts.STYLES

    assert len({colour for colour, _, _ in styles}) == len(styles)
    assert len({dash for _, dash, _ in styles}) == len(styles)
    assert len({marker for _, _, marker in styles}) == len(styles)
    root = parsed(lines(series=[Series(str(k), [k, k + 1, k + 2]) for k in range(12)]))
    assert len(root.findall(f"{SVG}g")) == charts.MAX_SERIES  # the first eight drawn


def test_the_charts_use_no_style_attribute_the_policy_would_refuse():
    svg = lines(band=[(0, 1), (1, 2), (2, 3)], band_name="pas") + charts.bar_chart(
        key="b", title="t", desc="d", bars=[Bar("rozbójnik", -36.0, "rozdania: 7"), Bar("odgrywka", 57.7)]
    )

    assert "style=" not in svg and "<style" not in svg and "<script" not in svg


def test_empty_and_single_point_series_draw_an_empty_plot_without_error():
    empty = parsed(lines(x_labels=[], series=[]))
    one = parsed(lines(x_labels=["1.10"], series=[Series("ala", [5])]))
    gaps = parsed(lines(series=[Series("ala", [None, None, None])]))

    assert empty.find(f"{SVG}polyline") is None
    assert one.find(f".//{SVG}polyline") is None and one.find(f".//{SVG}circle") is not None
    assert gaps.find(f".//{SVG}polyline") is None
    assert parsed(charts.bar_chart(key="b", title="t", desc="d", bars=[])).get("role") == "img"


def test_a_bar_chart_puts_each_value_beside_its_bar_in_the_readers_language():
    with translation.override("pl"):
        root = parsed(
            charts.bar_chart(
                key="kinds", title="Punkty", desc="d", bars=[Bar("rozbójnik", -36.0), Bar("odgrywka", 57.74)], places=1
            )
        )

    bars = {rect.get("data-label"): float(rect.get("data-value")) for rect in root.iter(f"{SVG}rect")}
    assert bars == {"rozbójnik": -36.0, "odgrywka": 57.74}
    assert {"−36,0", "+57,7"} <= set(texts(root))


@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(0, 1e6, allow_nan=False),
)
def test_the_ticks_are_evenly_spaced_round_values_covering_the_range(low, width):
    high = low + width
    ticks = charts.nice_ticks(low, high)

    assert ticks[0] <= low and ticks[-1] >= high
    steps = {round(b - a, 6) for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1
    step = steps.pop()
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in {1, 2, 5, 10}
    assert len(ticks) <= 8
