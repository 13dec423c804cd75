"""A league that writes only the result (Doppelkopf option ``points_only``): the
meeting page offers the result first, saves it as a ``points`` hand, names what it cannot
read, and a hand stored so is corrected through the same form. Club rules, four at the table."""

import pytest
from django.urls import reverse

from leagues.models import HandResult, Role
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def meeting(db):
    league = LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"points_only": True})
    return meeting_for(league, NAMES)


@pytest.fixture
def scorekeeper(client, meeting):
    user = member(meeting.league, Role.SCOREKEEPER)
    client.force_login(user)
    return user


def url(name, meeting, hand=None):
    kwargs = {"slug": meeting.league.slug, "pk": meeting.pk}
    if hand is not None:
        kwargs["hand_pk"] = hand.pk
    return reverse(name, kwargs=kwargs)


def result(expected, **fields):
    data = {"expected_hand": str(expected), "kind": "points", "re": ["Anna", "Ben"], "winner": "re", "value": "1"}
    data.update(fields)
    return data


def totals(meeting, number):
    return {r.player.name: r.total for r in HandResult.objects.filter(meeting=meeting, number=number)}


def test_the_page_offers_the_result_first(client, meeting, scorekeeper):
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert 'name="kind" value="points" checked' in html
    assert 'name="value" value="1" checked' in html and 'name="winner" value="re"' in html


def test_a_plain_result_is_saved_as_a_points_hand(client, meeting, scorekeeper):
    response = client.post(url("hand_add_hx", meeting), result(1), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    hand = meeting.hands.get()
    assert hand.payload == {"kind": "points", "re": ["Anna", "Ben"], "winner": "re", "value": 1}
    # Plain plus-minus: Re (Anna, Ben) won 1, Kontra lost 1 each (doppelkopf_value, kind points).
    assert totals(meeting, 1) == {"Anna": 1, "Ben": 1, "Carl": -1, "Dora": -1}


def test_a_fact_starts_a_bock_round(client, meeting, scorekeeper):
    # Kontra announced and Re won 3: Kontra lost (a Bock trigger of the club): the next game
    # counts double. Hand 2, Re (Carl, Dora) wins 2 -> 4 each.
    client.post(url("hand_add_hx", meeting), result(1, value="3", kontra_announced="1"), HTTP_HX_REQUEST="true")
    html = client.post(
        url("hand_add_hx", meeting), result(2, re=["Carl", "Dora"], value="2"), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="hand-2" class="round-bock' in html
    assert totals(meeting, 2) == {"Anna": 3 - 4, "Ben": 3 - 4, "Carl": -3 + 4, "Dora": -3 + 4}


@pytest.mark.parametrize(
    "data, message",
    [
        (result(1, winner=""), "Tap who won."),
        (result(1, value=""), "Tap the value."),
        (result(1, value_other="viel"), "is not a whole number"),
        (result(1, value_other="101"), "from 0 to 100"),  # the engine's most
        (result(1, re=["Anna"]), "Which solo"),  # a soloist needs the solo type
        (result(1, schwarz="1", split_120="1"), "120 to 120 cannot be schwarz"),
    ],
)
def test_a_result_it_cannot_take_is_a_400_with_the_message(client, meeting, scorekeeper, data, message):
    response = client.post(url("hand_add_hx", meeting), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and 'class="errorlist' in html
    assert not meeting.hands.exists()


def test_a_points_hand_is_corrected_through_the_same_form(client, meeting, scorekeeper):
    client.post(url("hand_add_hx", meeting), result(1, value_other="9"), HTTP_HX_REQUEST="true")
    hand = meeting.hands.get()
    edit = client.get(url("hand_edit", meeting, hand)).content.decode()
    assert 'value="points" checked' in edit and 'name="value_other"' in edit and 'value="9"' in edit
    response = client.post(url("hand_edit", meeting, hand), result(1, winner="kontra", value="2", version="1"))
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.payload["winner"] == "kontra" and hand.payload["value"] == 2
    assert totals(meeting, 1) == {"Anna": -2, "Ben": -2, "Carl": 2, "Dora": 2}


def test_the_league_form_offers_the_option_off_by_default():
    from leagues.clubs.forms import RulesForm
    from scoring.doppelkopf import GAME

    for preset in ("club", "ddv"):
        form = RulesForm(spec=GAME, preset=preset)
        assert form.fields["points_only"].initial is False
        assert 'name="rule-points_only"' in str(form) and "Write only the result" in str(form)
