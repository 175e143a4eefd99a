"""The disputes page of a match (``/matches/{id}/disputes/``): a seated player disputes a deal; an
arbiter — never one seated in the match — rules on it, and the ruling is an event of the match's
log beside the played result; an adjustment outside the analysis needs its reason (the typed
form comes back with the seats' ranges); the audit's verdict says whether the log is intact."""

import pytest
from web_helpers import imported_match, match_in_play

from games.domain.event_types import RulingRecorded
from games.domain.log import stream
from games.models import Dispute

pytestmark = pytest.mark.django_db

LATE_CARD = 49  # near the deal's end: the analysis a ruling is checked against is quick there


def page(client, match):
    return client.get(f"/matches/{match.pk}/disputes/")


def raise_dispute(client, match, **typed):
    return client.post(f"/matches/{match.pk}/disputes/", {"deal": "1", "card": str(LATE_CARD), **typed})


def rule(client, dispute, **typed):
    return client.post(f"/matches/{dispute.match_id}/disputes/{dispute.pk}/ruling/", typed)


def rulings(match) -> list:
    return [item.event for item in stream(match, RulingRecorded)]


@pytest.fixture
def disputed(client, users):
    """m1-legal, finished; ``ala`` (seated at N) disputes deal 1 at card ``LATE_CARD``."""
    match = imported_match(users)
    client.force_login(users["ala"])
    response = raise_dispute(client, match, statement="W zagrał kiera do pika.")
    assert response.status_code == 302, response.content[:500]
    return match, Dispute.objects.get(match=match)


def test_a_seated_player_disputes_a_deal_and_sees_it_await_a_ruling(client, users, disputed):
    match, dispute = disputed

    html = page(client, match).content.decode()

    assert (dispute.deal, dispute.play_index, dispute.raised_by) == (1, LATE_CARD - 1, users["ala"])
    assert f'id="dispute-{dispute.pk}" data-open="true"' in html and "W zagrał kiera do pika." in html
    assert 'id="raise-dispute"' in html and f'id="ruling-{dispute.pk}"' not in html  # a player does not rule
    assert 'id="disputes-link"' in client.get(f"/matches/{match.pk}/").content.decode()


def test_a_refused_dispute_keeps_what_was_typed_and_stores_nothing(client, users):
    match = imported_match(users)
    client.force_login(users["bartek"])

    response = raise_dispute(client, match, card="99", statement="Karta spoza rozdania")

    html = response.content.decode()
    assert response.status_code == 400 and 'id="error-play_index"' in html
    assert 'value="99"' in html and "Karta spoza rozdania" in html
    assert not Dispute.objects.exists()


def test_an_arbiter_rules_and_the_ruling_is_in_the_log_beside_the_played_result(client, users, disputed):
    match, dispute = disputed
    client.force_login(users["staff"])  # a match in no season: staff are its arbiters
    assert f'id="ruling-{dispute.pk}"' in page(client, match).content.decode()

    response = rule(client, dispute, type="no_change", reason="Kolor był zachowany.")

    assert response.status_code == 302 and response["Location"].endswith(f"#dispute-{dispute.pk}")
    assert [(r.ruling, r.reason) for r in rulings(match)] == [("no_change", "Kolor był zachowany.")]
    html = page(client, match).content.decode()
    assert f'id="dispute-{dispute.pk}" data-open="false"' in html and "Kolor był zachowany." in html


def test_an_adjustment_outside_the_analysis_comes_back_with_the_ranges_and_passes_with_a_reason(
    client, users, disputed
):
    match, dispute = disputed
    client.force_login(users["staff"])
    typed = {"type": "score_adjusted", "N": "500", "E": "0", "S": "0", "W": "0", "reason": "Kara za rewokę."}

    refused = rule(client, dispute, **typed)

    html = refused.content.decode()
    assert refused.status_code == 422 and f'id="outside-{dispute.pk}"' in html and 'id="error-override"' in html
    assert 'name="N" inputmode="numeric" step="1" value="500"' in html and "Kara za rewokę." in html
    assert rulings(match) == []
    accepted = rule(client, dispute, **typed, override="Decyzja sędziego klubu.")
    assert accepted.status_code == 302
    [ruling] = rulings(match)
    assert (ruling.points["N"], ruling.override) == (500, "Decyzja sędziego klubu.")


def test_a_player_cannot_rule_not_even_a_seated_arbiter(client, users, disputed):
    match, dispute = disputed
    users["ala"].is_staff = True  # seated in the match: a player there, whatever else he is
    users["ala"].save()
    client.force_login(users["ala"])

    response = rule(client, dispute, type="no_change", reason="Sam sobie sędzią.")

    assert response.status_code == 403 and 'id="refused"' in response.content.decode() and rulings(match) == []
    assert f'id="ruling-{dispute.pk}"' not in page(client, match).content.decode()


def test_a_dispute_of_another_match_or_an_outsider_is_not_found(client, users, disputed):
    match, dispute = disputed
    other = match_in_play(users)
    client.force_login(users["staff"])
    wrong = client.post(f"/matches/{other.pk}/disputes/{dispute.pk}/ruling/", {"type": "no_change", "reason": "x"})
    assert wrong.status_code == 404 and rulings(match) == []
    client.force_login(users["outsider"])
    assert page(client, match).status_code == 404


def test_the_arbiter_sees_the_audits_verdict_and_a_player_sees_it_once_the_match_ended(client, users, disputed):
    match, _ = disputed
    for name in ("staff", "ala"):
        client.force_login(users[name])
        html = page(client, match).content.decode()
        assert 'id="audit" data-ok="true"' in html, name
    client.force_login(users["scorer"])  # the scorer audits nothing (games.read.inspection)
    assert 'id="audit"' not in page(client, match).content.decode()


def test_the_club_page_lists_the_disputes_awaiting_a_ruling_to_its_arbiters_only(client, django_user_model):
    from support.world import build_world, play_record, season_match, simulated

    from games.write import disputes

    world = build_world(django_user_model)
    match = season_match(world)
    play_record(match, simulated(5), world.users["sam"], deals=1)
    raised = disputes.dispute_raise(
        match_id=match.pk, actor=world.users["ala"], deal=1, statement="Rewoka", play_index=3
    )

    client.force_login(world.users["ari"])
    html = client.get(f"/clubs/{world.club.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/disputes/#dispute-{raised.pk}"' in html
    disputes.ruling_record(dispute_id=raised.pk, actor=world.users["ari"], ruling="no_change", reason="Bez rewoki.")
    html = client.get(f"/clubs/{world.club.pk}/").content.decode()
    assert 'id="open-disputes"' in html and f"#dispute-{raised.pk}" not in html
    client.force_login(world.users["ala"])  # a member, not an arbiter
    assert 'id="open-disputes"' not in client.get(f"/clubs/{world.club.pk}/").content.decode()


def test_an_altered_log_is_said_to_be_altered_at_its_first_altered_event(client, users, disputed):
    from support.event_table import json_param, tamperable

    from games.domain.chain import canonical_json
    from games.models import MatchEvent

    match, _ = disputed
    rows = MatchEvent.objects.filter(match=match, type="card_played").order_by("seq")
    changed, malformed = rows[0], rows[1]
    other = "2C" if changed.payload["card"] != "2C" else "3C"
    with tamperable() as cursor:  # a card changed, then a payload no command writes, behind their back
        for row, payload in ((changed, {**changed.payload, "card": other}), (malformed, {**malformed.payload, "x": 1})):
            cursor.execute(
                f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
                [canonical_json(payload).decode(), row.pk],
            )
    client.force_login(users["staff"])

    response = page(client, match)

    html = response.content.decode()
    assert response.status_code == 200 and 'id="audit" data-ok="false"' in html
    assert f"The hash chain breaks at event {changed.seq}." in html


def test_a_deal_filed_from_a_paper_sheet_has_no_steps_to_go_through(client, users):
    from support.world import SHORT, file_by_points, simulated

    from games.write import disputes, services

    match = services.match_create(
        actor=users["scorer"],
        seats=dict(zip("NESW", ("ala", "bartek", "celina", "darek"))),
        first_dealer="N",
        dealing="recorded",
        ruleset={"options": SHORT},
    )
    file_by_points(match, simulated(3, ("ala", "bartek", "celina", "darek")), users["scorer"])
    disputes.dispute_raise(match_id=match.pk, actor=users["ala"], deal=1, statement="Źle policzone kiery.")
    client.force_login(users["ala"])

    html = page(client, match).content.decode()

    assert "Źle policzone kiery." in html and f"/matches/{match.pk}/deals/1/" not in html
