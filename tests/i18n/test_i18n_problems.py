"""Problem details in the reader's language (Accept-Language), with codes, rule ids, keys and
the OpenAPI contract English and the same in every language."""

import uuid

import pytest
from i18n_helpers import PLAYERS, SEATS, english_words, sample
from rest_framework.test import APIClient

from scoring.models import SeatInvitation

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(users):
    def client(name):
        made = APIClient()
        made.force_authenticate(users[name])
        return made

    return client


@pytest.fixture
def heart_lead(api):
    """A recorded match dealt m1-legal's first hands; E, who holds other suits, leads the queen
    of hearts (R10). Returns ``ask(language)``: the problem+json response in that language."""
    created = (
        api("zenon")
        .post(
            "/api/v1/matches/",
            {"seats": dict(zip(SEATS, PLAYERS)), "first_dealer": "N", "dealing": "recorded"},
            format="json",
        )
        .json()
    )
    for invitation in SeatInvitation.objects.filter(match_id=created["id"]).select_related("user"):
        accepted = api(invitation.user.username).post(f"/api/v1/seat-invitations/{invitation.pk}/accept/")
        assert accepted.status_code == 200  # issue 30: the seated users accept before the scorer records
    dealt = api("zenon").post(
        f"/api/v1/matches/{created['id']}/deals/", {"hands": sample("m1-legal")["deals"][0]["hands"]}, format="json"
    )
    assert dealt.status_code == 201, dealt.content

    def ask(language):
        return api("bartek").post(
            f"/api/v1/matches/{created['id']}/plays/",
            {"card": "QH"},
            format="json",
            headers={"accept-language": language},
        )

    return ask


def test_a_rule_violation_is_told_in_polish_and_in_english(heart_lead):
    polish, english = heart_lead("pl"), heart_lead("en")

    assert polish.status_code == english.status_code == 422
    assert polish["Content-Language"] == "pl" and english["Content-Language"] == "en"
    assert polish.json()["title"] == "Nie wolno wistować w kiery"
    assert polish.json()["detail"] == "W kiery może wistować tylko gracz, który ma na ręku same kiery."
    assert english.json()["title"] == "Hearts lead forbidden"
    assert english.json()["detail"] == "A heart may be led only by a player who holds nothing but hearts."
    machine = ("type", "status", "code", "rule", "error")
    assert {key: polish.json()[key] for key in machine} == {key: english.json()[key] for key in machine}
    assert polish.json()["code"] == "hearts_lead_forbidden" and polish.json()["rule"] == "R10"


def test_a_missing_match_is_told_in_the_readers_language(api):
    missing = f"/api/v1/matches/{uuid.uuid4()}/"
    polish = api("ala").get(missing, headers={"accept-language": "pl-PL,pl;q=0.9,en;q=0.5"}).json()
    english = api("ala").get(missing, headers={"accept-language": "en-GB"}).json()

    assert polish["code"] == english["code"] == "not_found"
    assert polish["title"] == "Nie znaleziono" and polish["detail"].startswith("nie ma partii ")
    assert english["title"] == "Not found" and english["detail"].startswith("no match ")


def test_bad_input_names_the_field_in_english_and_says_what_is_wrong_in_polish(api):
    response = api("ala").post(
        "/api/v1/matches/",
        {"seats": {"N": "ala"}, "first_dealer": "N"},
        format="json",
        headers={"accept-language": "pl"},
    )
    body = response.json()

    assert response.status_code == 400 and body["code"] == "invalid" and body["field"] == "seats.E"
    assert body["title"] == "Nieprawidłowe żądanie"
    assert body["detail"] == "To pole jest wymagane."  # DRF's own message, in DRF's Polish


def test_an_engine_message_with_values_is_translated_with_them(api):
    record = sample("m1-legal")
    record["ruleset"]["options"] = {"last_tricks": [13, 13]}
    polish = api("zenon").post("/api/v1/matches/import/", record, format="json", headers={"accept-language": "pl"})
    english = api("zenon").post("/api/v1/matches/import/", record, format="json", headers={"accept-language": "en"})

    assert polish.status_code == english.status_code == 400
    assert polish.json()["field"] == english.json()["field"] == "ruleset.last_tricks"
    assert polish.json()["detail"] == "last_tricks musi podawać dwa różne numery lew od 1 do 13, a jest [13, 13]"
    assert english.json()["detail"] == "last_tricks must be two different trick numbers 1-13, got [13, 13]"


def test_an_oversized_body_is_refused_in_the_readers_language(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = api("ala").post(
        "/api/v1/matches/", {"padding": "x" * 200}, format="json", headers={"accept-language": "pl"}
    )

    assert response.status_code == 413 and response.json()["code"] == "payload_too_large"
    assert response.json()["title"] == "Za duża treść żądania" and "limit to 100 B" in response.json()["detail"]


def test_the_problem_types_are_listed_in_the_readers_language(client):
    polish = client.get("/api/v1/problems/", headers={"accept-language": "pl"}).json()
    english = client.get("/api/v1/problems/", headers={"accept-language": "en"}).json()

    assert [p["code"] for p in polish] == [p["code"] for p in english]
    titles = {p["code"]: p["title"] for p in polish}
    assert titles["must_follow_suit"] == "Trzeba dołożyć do koloru" and titles["not_found"] == "Nie znaleziono"
    assert all(p["title"] != e["title"] and p["description"] != e["description"] for p, e in zip(polish, english))


def test_the_openapi_contract_stays_english(client):
    polish = client.get("/api/v1/schema/?format=json", headers={"accept-language": "pl"}).content.decode()
    english = client.get("/api/v1/schema/?format=json", headers={"accept-language": "en"}).content.decode()

    assert polish == english
    assert "Retry after Retry-After seconds" in english and "Baza danych" not in polish


def test_the_english_words_check_knows_our_vocabulary():
    words = english_words()
    assert {"trick", "score", "standings", "sign"} <= words
    assert "kreski" not in words and "rozbójnik" not in words  # Polish game terms are shared


@pytest.mark.parametrize(
    "language, wait, detail",
    [
        ("pl", 40, "Zbyt wiele żądań: spróbuj ponownie za 40 sekund."),
        ("pl", 2, "Zbyt wiele żądań: spróbuj ponownie za 2 sekundy."),
        ("pl", 1, "Zbyt wiele żądań: spróbuj ponownie za 1 sekundę."),
        ("en", 40, "Too many requests: try again in 40 seconds."),
        ("en", None, "Too many requests: try again later."),
    ],
)
def test_a_throttled_request_is_told_wholly_in_the_readers_language(language, wait, detail):
    """Issue 29: DRF's own message ended in English ("Żądanie zostało zdławione. Expected available in 40 seconds.")."""
    from django.utils import translation
    from rest_framework.exceptions import Throttled

    from api.problems import exception_handler

    with translation.override(language):
        response = exception_handler(Throttled(wait=wait), {})

    assert response.status_code == 429
    assert (response.data["code"], response.data["detail"]) == ("throttled", detail)
