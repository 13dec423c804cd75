"""What a walk through the money pages on a phone asked for: the closed evening points to its
settlement, a hand-booked entry is a deposit unless chosen otherwise, a tick's ledger entry is
not undone behind the tick's back, the money rules are titled once, and the IBAN page guesses
the account holder.

The evening is test_settlement's: Carl owes the cashbox 0,50 € for his lost solo; ticked
paid, its ledger entry (kind evening, +0,50 €) is linked to the payment."""

import json

import pytest
from django.urls import reverse

from leagues.cashbox import services
from leagues.cashbox.forms import EntryForm, MoneyRulesForm
from leagues.exceptions import InvalidInput
from leagues.models import CashboxEntry, EntryKind, Membership, Player
from tests.cashbox.conftest import login
from tests.cashbox.test_settlement import MONEY, closed_evening
from tests.factories import meeting_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(league, people):
    league.money_rules = MONEY
    league.save()
    return closed_evening(league, people["scorekeeper"])


@pytest.fixture
def ticked_entry(evening, people):
    carl = Player.objects.get(name="Carl")
    payment = services.tick_payment(meeting=evening, key=f"{carl.pk}-box-50", paid_how="cash", user=people["admin"])
    return payment.cashbox_entry


def test_the_closed_evening_links_to_its_settlement(client, evening, people):
    login(client, people, "member")
    page = client.get(evening.get_absolute_url()).content.decode()
    assert '<a href="#settling">To the settlement ↓</a>' in page
    assert 'id="settling"' in page


def test_an_evening_without_money_has_no_link(client, league, people):
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    login(client, people, "member")
    page = client.get(meeting.get_absolute_url()).content.decode()
    assert 'href="#settling"' not in page


def test_the_entry_form_books_a_deposit_unless_told(league, people):
    admin = Membership.objects.get(league=league, user=people["admin"])
    form = EntryForm(membership=admin, seasons=[])
    assert form["kind"].value() == EntryKind.DEPOSIT
    labels = dict(form.fields["kind"].choices)
    assert str(labels[EntryKind.EVENING]) == "payments of an evening not settled in the app"
    assert str(labels[EntryKind.FEE]) == "fee"


def test_the_ledger_page_preselects_a_deposit(client, league, people):
    login(client, people, "scorekeeper")
    page = client.get(reverse("cashbox", kwargs={"slug": league.slug})).content.decode()
    assert '<option value="deposit" selected>' in page


def test_a_ticks_entry_is_not_countered(ticked_entry, people):
    with pytest.raises(InvalidInput) as refused:
        services.counter_entry(league=ticked_entry.league, entry_id=ticked_entry.pk, note="x", user=people["admin"])
    assert refused.value.errors[0]["field"] == "entry"
    assert "comes from the settlement of the evening of" in refused.value.errors[0]["message"]
    assert CashboxEntry.objects.count() == 1


def test_an_entry_booked_by_hand_is_still_countered(league, people):
    entry = services.record_entry(league=league, kind=EntryKind.EVENING, cents=50, note="Carl", user=people["admin"])
    counter = services.counter_entry(league=league, entry_id=entry.pk, note="doppelt", user=people["admin"])
    assert counter.cents == -50


def test_the_ledger_page_names_the_evening_and_offers_no_undo(client, ticked_entry, people):
    league, evening = ticked_entry.league, ticked_entry.meeting
    booked = services.record_entry(league=league, kind=EntryKind.DEPOSIT, cents=900, note="Kasse", user=people["admin"])
    login(client, people, "admin")
    page = client.get(reverse("cashbox", kwargs={"slug": league.slug})).content.decode()
    assert f'href="{evening.get_absolute_url()}#settling"' in page
    counter_url = lambda entry: reverse("cashbox_counter", kwargs={"slug": league.slug, "pk": entry.pk})  # noqa: E731
    assert counter_url(ticked_entry) not in page
    assert counter_url(booked) in page  # an entry booked by hand keeps its "Rückgängig"
    posted = client.post(counter_url(ticked_entry), {"note": "falsch"})
    assert posted.status_code == 400
    assert "ticked paid: it is not undone here" in posted.content.decode()
    assert CashboxEntry.objects.count() == 2


def test_the_api_refuses_to_counter_a_ticks_entry(client, ticked_entry, people):
    login(client, people, "admin")
    path = f"/api/v1/leagues/{ticked_entry.league.slug}/cashbox/entries/{ticked_entry.pk}/counter/"
    answer = client.post(path, data=json.dumps({"note": "falsch"}), content_type="application/json")
    assert (answer.status_code, answer.json()["errors"][0]["field"]) == (400, "entry")
    assert CashboxEntry.objects.count() == 1


def test_the_money_section_is_not_titled_money_again(league):
    sections = MoneyRulesForm(rules={}, game="doppelkopf").sections()
    assert [str(s["label"]) for s in sections] == ["Stakes and fees"]


def test_the_house_rules_show_money_once(client, league, people):
    login(client, people, "admin")
    page = client.get(league.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    money = page[page.index('id="money-rules"') :]
    money = money[: money.index("</fieldset>")]
    assert "<legend>Geld</legend>" in money
    assert 'class="section-title">Geld' not in money


def test_the_iban_page_guesses_the_holder_from_the_player_name(client, league, people):
    Player.objects.filter(league=league, user=people["member"]).update(name="Dora Fuchs")
    membership = Membership.objects.get(league=league, user=people["member"])
    url = reverse("bank_account", kwargs={"slug": league.slug})
    login(client, people, "member")
    assert client.get(url).context["form"]["holder"].value() == "Dora Fuchs"
    services.save_bank_account(membership=membership, iban="DE89370400440532013000", holder="D. Fuchs")
    assert client.get(url).context["form"]["holder"].value() == "D. Fuchs"  # what he stored wins


def test_the_iban_page_leaves_the_holder_empty_without_a_player(client, league, people):
    Player.objects.filter(league=league, user=people["scorekeeper"]).update(user=None)
    login(client, people, "scorekeeper")
    form = client.get(reverse("bank_account", kwargs={"slug": league.slug})).context["form"]
    assert not form["holder"].value()
