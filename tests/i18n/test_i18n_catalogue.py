"""The Polish catalogue: every message the code base marks has a Polish translation, the compiled
catalogue is the committed one's, and the engine's English is what its errors say."""

import re
import subprocess
import sys

import polib
import pytest
from i18n_helpers import COMPILED, ROOT, catalogue, fresh_catalogue, translations


def test_every_message_in_the_code_has_a_polish_translation(tmp_path, needs_gettext):
    fresh = fresh_catalogue(tmp_path)

    untranslated = sorted(entry.msgid for entry in fresh if not entry.translated() and not entry.obsolete)
    fuzzy = sorted(entry.msgid for entry in fresh if "fuzzy" in entry.flags)
    assert untranslated == [], "run `make messages` and translate these in locale/pl/LC_MESSAGES/django.po"
    assert fuzzy == [], "check these translations and drop their fuzzy flag"
    assert set(translations(fresh)) == set(translations(catalogue())), "run `make messages`: the catalogue is stale"


def test_every_plural_has_the_four_polish_forms():
    for entry in catalogue():
        if entry.msgid_plural:
            assert sorted(entry.msgstr_plural) == [0, 1, 2, 3], entry.msgid
            assert all(entry.msgstr_plural.values()), entry.msgid


def test_the_committed_mo_is_compiled_from_the_committed_po():
    compiled = translations(polib.mofile(str(COMPILED)))
    source = {key: text for key, text in translations(catalogue()).items() if text}

    assert compiled == source, "run `make messages` (compilemessages) and commit locale/pl/LC_MESSAGES/django.mo"


# Words of the club's vocabulary (docs/i18n.md, "Words") and the other Polish word a translation
# might reach for: a page that says "mecz" beside "partia" reads as two different things.
NOT_THE_CLUBS_WORD = re.compile(r"\b(mecz\w*|spór|sporu|sporze|sporów)\b", re.IGNORECASE)


def test_the_translations_say_partia_and_protest():
    found = [
        (word, entry.msgid)
        for entry in catalogue()
        for text in (entry.msgstr, *entry.msgstr_plural.values())
        for word in NOT_THE_CLUBS_WORD.findall(text)
    ]

    assert found == [], [f"{word!r} in the translation of {msgid!r}" for word, msgid in found]


def test_placeholders_are_kept_in_every_translation():
    result = (
        subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(COMPILED.with_suffix(".po"))], capture_output=True, text=True
        )
        if _has_msgfmt()
        else None
    )
    if result is None:
        pytest.skip("needs GNU gettext's msgfmt")
    assert result.returncode == 0, result.stderr


def test_each_rule_violation_has_a_title_and_its_docstring_as_the_english_detail():
    from games.domain.messages import VIOLATION_TEXTS
    from games.engine.errors import VIOLATIONS

    assert set(VIOLATION_TEXTS) == set(VIOLATIONS)
    for code, cls in VIOLATIONS.items():
        assert VIOLATION_TEXTS[code][1] == cls.__doc__.strip().splitlines()[0], code


def test_the_engine_marks_its_messages_without_importing_django():
    code = (
        "import sys; import games.engine.errors, games.engine.record, games.engine.deal; "
        "print(any(name == 'django' or name.startswith('django.') for name in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def _has_msgfmt() -> bool:
    import shutil

    return shutil.which("msgfmt") is not None
