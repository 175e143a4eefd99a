"""The PDFs' font: a TrueType font with the Polish letters (ą ć ę ł ń ó ś ź ż), embedded in each
document. ReportLab's built-in Helvetica has no "ł": the text would come out with holes."""

from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR, BOLD = "KierkiSans", "KierkiSans-Bold"


class FontMissing(RuntimeError):
    """The configured TTF is not there (install fonts-dejavu-core, or set PDF_FONT)."""


@functools.cache
def registered() -> tuple[str, str]:
    """Register the fonts once per process; returns the regular and the bold font's names."""
    for name, path in ((REGULAR, settings.PDF_FONT), (BOLD, settings.PDF_FONT_BOLD)):
        if not Path(path).is_file():
            raise FontMissing(f"no font file {path}: install Debian's fonts-dejavu-core or set PDF_FONT/PDF_FONT_BOLD")
        pdfmetrics.registerFont(TTFont(name, path))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
    return REGULAR, BOLD
