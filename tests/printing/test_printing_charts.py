"""The season summary PDF prints the balance after each evening (printing/charts.py) from the
same selector as the season page: its heading, the players in its legend and the axis in the
reader's language, in the PDF's text; ``pdftoppm`` renders it to an image (set
``PDF_SCREENSHOTS=<dir>`` to keep it and look at it)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from support.evenings import season_of_evenings

from printing import render_summary
from scoring import printouts

pytestmark = pytest.mark.django_db

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils (pdftotext)")


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "summary.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True, text=True).stdout


def keep_image(pdf: bytes, tmp_path: Path, name: str) -> Path:
    """The PDF's last page as a PNG (the chart is on it), kept under PDF_SCREENSHOTS when set."""
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    folder = Path(os.environ.get("PDF_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", "-singlefile", "-f", "1", str(path), str(folder / name)], check=True
    )
    return folder / f"{name}.png"


@needs_poppler
def test_the_summary_pdf_prints_the_balance_chart_in_polish(tmp_path):
    world = season_of_evenings(get_user_model())

    with translation.override("pl"):
        pdf = printouts.season_summary_pdf(season=world.season)

    text = pdf_text(pdf, tmp_path)
    assert "Bilans po każdym wieczorze" in text
    assert "Łucja & Ewa" in text and "<script>" in text  # the legend: names as they are, drawn as text
    assert "1 paź" in text and "8 paź" in text  # the axis: the day and the month in Polish
    assert "−" in text  # a real minus on the axis
    assert keep_image(pdf, tmp_path, "summary-pl").stat().st_size > 10_000


@needs_poppler
def test_the_summary_pdf_prints_the_chart_in_english(tmp_path):
    world = season_of_evenings(get_user_model())

    with translation.override("en"):
        pdf = printouts.season_summary_pdf(season=world.season)

    text = pdf_text(pdf, tmp_path)
    assert "Balance after each evening" in text and "1 Oct" in text
    keep_image(pdf, tmp_path, "summary-en")


@needs_poppler
def test_a_summary_with_no_evening_prints_no_chart(tmp_path):
    pdf = render_summary(title="Jesień", facts=[], rows=[], chart={"title": "Bilans", "x_labels": [], "series": []})

    assert "Bilans" not in pdf_text(pdf, tmp_path)
