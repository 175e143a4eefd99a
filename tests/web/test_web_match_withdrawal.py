"""The match page's "Withdraw this match" form (issue 23: a whole evening through pages): its
arbiters withdraw a match with a reason; a refusal shows the page again with the reason kept and
the message beside it, nothing stored; a player sees no form and is refused."""

import pytest
from web_helpers import imported_match

from games.models import Match

pytestmark = pytest.mark.django_db


def test_an_arbiter_withdraws_a_match_from_its_page(client, users):
    match = imported_match(users)
    client.force_login(users["staff"])
    assert 'id="withdraw-match"' in client.get(f"/matches/{match.pk}/").content.decode()
    response = client.post(f"/matches/{match.pk}/withdrawal/", {"reason": "wrong table"}, follow=True)
    assert response.status_code == 200 and "The match is withdrawn" in response.content.decode()
    assert Match.objects.get(pk=match.pk).withdrawn
    assert 'id="withdraw-match"' not in response.content.decode()  # once withdrawn, no form


def test_a_refused_withdrawal_keeps_the_reason_and_says_why(client, users):
    match = imported_match(users)
    client.force_login(users["staff"])
    response = client.post(f"/matches/{match.pk}/withdrawal/", {"reason": " "})
    html = response.content.decode()
    assert response.status_code == 400 and 'id="error-withdraw"' in html and 'value=" "' in html
    assert not Match.objects.get(pk=match.pk).withdrawn


def test_a_player_sees_no_form_and_cannot_withdraw(client, users):
    match = imported_match(users)
    client.force_login(users["ala"])
    assert 'id="withdraw-match"' not in client.get(f"/matches/{match.pk}/").content.decode()
    response = client.post(f"/matches/{match.pk}/withdrawal/", {"reason": "I lost"})
    assert response.status_code == 403 and not Match.objects.get(pk=match.pk).withdrawn


def test_an_outsider_gets_a_404(client, users):
    match = imported_match(users)
    client.force_login(users["outsider"])
    assert client.post(f"/matches/{match.pk}/withdrawal/", {"reason": "x"}).status_code == 404
