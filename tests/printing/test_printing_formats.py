"""printing/formats.py: how numbers, dates and names are written for people (issue 25, item 2),
the one module the pages' filters and the PDFs share."""

import datetime

import pytest
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st

from printing import formats

MOMENT = datetime.datetime(2026, 12, 3, 7, 56, tzinfo=datetime.UTC)


@pytest.fixture
def polish():
    with translation.override("pl"):
        yield


def test_numbers_have_a_decimal_comma_and_a_real_minus_in_polish(polish):
    assert formats.number(-0.4, 1) == "−0,4"
    assert formats.number(58.75, 2) == "58,75"
    assert formats.signed(8.07, 2) == "+8,07"
    assert formats.signed(-26) == "−26"
    assert formats.signed(0) == "0" and formats.signed(-0.001, 2) == "0,00"  # no sign on a nought


def test_numbers_keep_the_decimal_point_in_english():
    with translation.override("en"):
        assert formats.signed(8.07, 2) == "+8.07" and formats.number(-1, 0) == "−1"


def test_times_are_warsaw_time_whatever_zone_the_request_runs_in(polish):
    with timezone.override(datetime.UTC):  # the API's zone: its PDFs are printed under it
        assert formats.long_datetime(MOMENT) == "3 grudnia 2026 08:56"
        assert formats.long_date(datetime.datetime(2026, 12, 3, 23, 30, tzinfo=datetime.UTC)) == "4 grudnia 2026"


def test_names_sort_in_polish_alphabetical_order():
    names = ["Żaneta", "Zofia", "Źdźbło", "Łucja", "Lucyna", "Józef", "Jędrzej", "ćma", "Celina", "adam", "Ala"]
    assert formats.by_name(names) == [
        "adam",
        "Ala",
        "Celina",
        "ćma",
        "Jędrzej",
        "Józef",
        "Lucyna",
        "Łucja",
        "Zofia",
        "Źdźbło",
        "Żaneta",
    ]


@given(st.text(alphabet="aąbcćdeęfghijklłmnńoóprsśtuwyzźżAĄŁŻ ", max_size=12))
def test_case_never_changes_a_names_place(name):
    assert formats.name_key(name)[0] == formats.name_key(name.upper())[0]


@given(st.lists(st.sampled_from(list(formats.ALPHABET)), min_size=2, max_size=2, unique=True))
def test_two_letters_sort_as_the_polish_alphabet_orders_them(pair):
    first, second = sorted(pair, key=formats.ALPHABET.index)
    assert formats.by_name([second, first]) == [first, second]


def test_a_person_is_his_profiles_name(django_user_model, db):
    from games.models import Player

    lucja = django_user_model.objects.create_user("lucja")
    assert formats.person(lucja) == "lucja"  # no profile: the username is all there is
    Player.objects.update_or_create(user=lucja, defaults={"username": "Łucja Nowak"})
    lucja.refresh_from_db()
    assert formats.person(lucja) == "Łucja Nowak"
    assert formats.person(Player.objects.get(user=lucja)) == "Łucja Nowak" and formats.person(None) == ""
