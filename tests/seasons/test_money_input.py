"""Money typed the German way: the bill's amounts are read in the page's
language, what has two readings is refused, a bill beyond a restaurant's is asked about, and
the figures are shown as the language writes them. Every figure worked out by hand."""

import datetime
from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.fields import AmountField
from leagues.models import Player, Role
from leagues.money import money_text
from scoring.numbers import AmbiguousNumber, decimal_number, local_decimal
from tests.bill_steps import save_bill
from tests.factories import LeagueFactory, member
from tests.stats.test_standings_queries import two_meetings

NBSP = "\u00a0"
GERMAN = {"headers": {"accept-language": "de"}}
ENGLISH = {"headers": {"accept-language": "en"}}


# --- reading: scoring.numbers.local_decimal -----------------------------------------------------


@pytest.mark.parametrize(
    "text, decimal_sep, value",
    [
        ("187,40", ",", Fraction(18740, 100)),
        ("1.234,50", ",", Fraction(123450, 100)),
        ("1.234.567,89", ",", Fraction(123456789, 100)),
        ("187.40", ",", Fraction(18740, 100)),  # a shared link's canonical form, on a German page
        ("1,234.50", ",", Fraction(123450, 100)),  # both marks: only one reading
        ("1 234,50", ",", Fraction(123450, 100)),
        ("1\u00a0234,50", ",", Fraction(123450, 100)),
        ("0.500", ",", Fraction(1, 2)),  # no thousands start with 0
        ("-2,5", ",", Fraction(-5, 2)),
        ("187.40", ".", Fraction(18740, 100)),
        ("1,234.50", ".", Fraction(123450, 100)),
        ("187,40", ".", Fraction(18740, 100)),  # a German habit on an English page: one reading
        ("1234", ".", 1234),
    ],
)
def test_it_reads_a_number_in_the_pages_language(text, decimal_sep, value):
    assert local_decimal(text, decimal_sep=decimal_sep, places=3) == value


@pytest.mark.parametrize(
    "text, decimal_sep, grouped, decimal",
    [
        ("1.234", ",", 1234, Fraction(1234, 1000)),
        ("1,234", ".", 1234, Fraction(1234, 1000)),
        ("12.500", ",", 12500, Fraction(125, 10)),
    ],
)
def test_it_refuses_a_thousands_separator_that_may_be_a_decimal(text, decimal_sep, grouped, decimal):
    with pytest.raises(AmbiguousNumber) as both:
        local_decimal(text, decimal_sep=decimal_sep, places=2)
    assert (both.value.grouped, both.value.decimal) == (grouped, decimal)


@pytest.mark.parametrize(
    "text", ["1,5,0", "1.23,45", "1.2.3", "187,", ",50", "12 34", "1,234,5", "١٨٧,٤٠", "187,4O", "1.234,5.0", ""]
)
def test_it_refuses_what_is_no_number(text):
    assert local_decimal(text, decimal_sep=",", places=2) is None


def test_the_api_keeps_its_strict_point():
    # calculate-api.md writes money "187.40": the JSON API reads no separators of a language.
    assert decimal_number("187.40") == Fraction(18740, 100)
    assert decimal_number("1.234,50") is None
    assert decimal_number("1,234.50") is None


# --- the field -----------------------------------------------------------------------------------


def amount(text, language):
    field = AmountField(label="Bill", max_digits=9, decimal_places=2)
    with translation.override(language):
        return field.clean(text)


def test_the_field_reads_german_in_german_and_english_in_english():
    assert amount("187,40", "de") == Decimal("187.40")
    assert amount("1.234,50", "de") == Decimal("1234.50")
    assert amount("187.40", "en") == Decimal("187.40")
    assert amount("1,234.50", "en") == Decimal("1234.50")


def test_the_field_names_itself_and_both_readings_when_ambiguous():
    with pytest.raises(Exception) as error:
        amount("1.234", "de")
    message = " ".join(error.value.messages)
    # In German the two readings are written the German way: 1234 or 1,234.
    assert "Bill" in message and "“1.234”" in message and "1234" in message and "1,234" in message
    with pytest.raises(Exception) as error:
        amount("1,234", "en")
    message = " ".join(error.value.messages)
    assert "“1,234”" in message and "1234" in message and "1.234" in message


def test_the_field_is_a_text_input_a_phone_types_a_comma_into():
    field = AmountField(label="Bill")
    html = field.widget.render("total", None, attrs=field.widget_attrs(field.widget))
    assert 'type="text"' in html and 'inputmode="decimal"' in html
    assert "pattern" not in html and 'type="number"' not in html


def test_money_is_written_with_a_no_break_space_and_grouping():
    with translation.override("de"):
        assert money_text(Decimal("1234.5")) == f"1.234,50{NBSP}€"
    with translation.override("en"):
        assert money_text(Decimal("1234.5")) == f"1,234.50{NBSP}€"


# --- the bill page --------------------------------------------------------------------------------


@pytest.fixture
def league(client, db):
    league = LeagueFactory()
    two_meetings(league)  # Ben 5, Anna 1, Emil 0, Carl 0, Dora -6: five players, mean 0
    league.seasons.update(closed_on=datetime.date(2026, 2, 13))
    client.force_login(member(league, Role.SCOREKEEPER))
    return league


def url(league):
    return reverse("season_bill", kwargs={"slug": league.slug, "number": 1})


def shares(response):
    """The split shown: a link's (result) or, without one, the stored bill's."""
    if response.context["result"]:
        return {r["name"]: r["share"] for r in response.context["result"]["rows"]}
    return {r["name"]: f"{r['share']:.2f}" for r in response.context["stored"]["rows"]}


def stored(league):
    return league.seasons.get(number=1).bills.current().get()


def test_a_german_bill_round_trips_to_the_same_split_in_either_language(client, league):
    response = save_bill(client, url(league), {"total": "187,40", "method": "equal", "tip_percent": "0"}, **GERMAN)
    assert response.status_code == 303
    location = response["Location"]
    assert stored(league).total == Decimal("187.40")
    # 187.40 / 5 = 37.48 each, whichever language opens the stored bill.
    for language in (GERMAN, ENGLISH):
        response = client.get(location, **language)
        assert response.status_code == 200
        assert set(shares(response).values()) == {"37.48"}
    assert f"37,48{NBSP}€" in client.get(location, **GERMAN).content.decode()
    assert f"37.48{NBSP}€" in client.get(location, **ENGLISH).content.decode()


def test_german_thousands_are_read_and_english_ones_too(client, league):
    # 1,234.50 for five is 246.90 each: above 200 a head, so confirmed with the checkbox.
    # An admin: changing a stored bill is an admin's.
    client.force_login(member(league, Role.ADMIN))
    for data, language in (({"total": "1.234,50"}, GERMAN), ({"total": "1,234.50"}, ENGLISH)):
        response = save_bill(client, url(league), {**data, "method": "equal", "confirm_total": "1234.50"}, **language)
        assert response.status_code == 303
        assert stored(league).total == Decimal("1234.50")
        assert set(shares(client.get(response["Location"]))) == {"Ben", "Anna", "Emil", "Carl", "Dora"}
        assert set(shares(client.get(response["Location"])).values()) == {"246.90"}


def test_the_rendered_shares_read_the_german_way(client, league):
    # per_point, 10 cents: 154.20 / 5 = 30.84; share = 30.84 − 0.10 × score:
    # Ben 30.34, Anna 30.74, Emil 30.84, Carl 30.84, Dora 31.44 (sum 154.20).
    response = client.get(url(league), {"total": "154.20", "method": "per_point", "cents_per_point": "10"}, **GERMAN)
    assert shares(response) == {"Ben": "30.34", "Anna": "30.74", "Emil": "30.84", "Carl": "30.84", "Dora": "31.44"}
    page = response.content.decode()
    for figure in ("30,34", "30,74", "30,84", "31,44"):
        assert f'<span class="money">{figure}{NBSP}€</span>' in page
    assert f'<span class="money">154,20{NBSP}€</span>' in page
    # The form under the result shows the bill as German writes it, ready to change.
    assert 'value="154,20"' in page


def test_an_ambiguous_amount_is_refused_with_the_field_named(client, league):
    response = client.post(url(league), {"total": "1.234", "method": "equal"}, **GERMAN)
    assert response.status_code == 400
    message = " ".join(response.context["form"].errors["total"])
    # German quotes („1.234“) once the page speaks German: the amount as typed, and both readings.
    assert "1.234“" in message and "1234" in message and "1,234" in message
    with translation.override("de"):
        assert str(response.context["form"].fields["total"].label) in message


@pytest.mark.parametrize("value", ["1,5,0", "1.2.3", "187,4O"])
def test_a_garbled_amount_is_refused_with_a_german_example(client, league, value):
    response = client.post(url(league), {"total": value, "method": "equal"}, **GERMAN)
    assert response.status_code == 400
    assert "187,40" in " ".join(response.context["form"].errors["total"])


def test_an_english_page_gives_english_examples(client, league):
    response = client.post(url(league), {"total": "lots", "method": "equal"}, **ENGLISH)
    assert "187.40" in " ".join(response.context["form"].errors["total"])


def test_what_one_paid_is_read_the_german_way_too(client, league):
    anna = Player.objects.get(league=league, name="Anna")
    ben = Player.objects.get(league=league, name="Ben")
    data = {
        "total": "187,40",
        "method": "equal",
        "paid_by": "several",
        f"paid_{anna.pk}": "100,00",
        f"paid_{ben.pk}": "87,4",
    }
    response = save_bill(client, url(league), data, **GERMAN)
    assert response.status_code == 303
    assert stored(league).paid == {"Anna": "100.00", "Ben": "87.40"}
    result = client.get(response["Location"]).context["stored"]
    # 37.48 each: Anna is owed 62.52, Ben 49.92; Emil, Carl, Dora owe 37.48 each.
    assert sum(Decimal(t["amount"]) for t in result["transfers"]) == Decimal("112.44")


# --- a bill beyond a restaurant's --------------------------------------------------------------------


def test_a_bill_above_200_a_head_asks_for_confirmation(client, league):
    # "18740" typed for 187,40: 3,748 € each for five; the page reads it back and asks.
    response = client.post(url(league), {"total": "18740", "method": "equal"}, **GERMAN)
    assert response.status_code == 400
    message = " ".join(response.context["form"].errors["total"])
    assert f"18.740,00{NBSP}€" in message and f"3.748,00{NBSP}€" in message
    page = response.content.decode()
    assert 'name="confirm_total" value="18740.00"' in page


def test_the_checkbox_accepts_it_and_the_link_keeps_it(client, league):
    data = {"total": "18740", "method": "equal", "confirm_total": "18740.00"}
    response = save_bill(client, url(league), data, **GERMAN)
    assert response.status_code == 303
    response = client.get(response["Location"], **ENGLISH)
    assert response.status_code == 200
    assert set(shares(response).values()) == {"3748.00"}


def test_a_confirmation_of_another_amount_confirms_nothing(client, league):
    data = {"total": "18740", "method": "equal", "confirm_total": "1874.00"}
    response = client.post(url(league), data, **GERMAN)
    assert response.status_code == 400
    assert 'name="confirm_total" value="18740.00"' in response.content.decode()


def test_200_a_head_is_still_plausible(client, league):
    # Five players: 1000.00 is exactly 200 each (not asked), 1000.05 is above.
    assert client.post(url(league), {"total": "1000.05", "method": "equal"}).status_code == 400
    assert save_bill(client, url(league), {"total": "1000", "method": "equal"}).status_code == 303


def test_amounts_that_do_not_add_up_are_named_the_german_way(client, league):
    anna = Player.objects.get(league=league, name="Anna")
    data = {"total": "187,40", "method": "equal", "paid_by": "several", f"paid_{anna.pk}": "60,5"}
    response = client.post(url(league), data, **GERMAN)
    assert response.status_code == 400
    message = " ".join(response.context["form"].errors["paid_by"])
    assert f"60,50{NBSP}€" in message and f"187,40{NBSP}€" in message


def test_the_bounds_in_messages_are_written_the_german_way(client, league):
    response = client.post(url(league), {"total": "2.000.000", "method": "equal"}, **GERMAN)
    assert response.status_code == 400
    # The largest bill is 1,000,000.00 € (scoring/limits.py): "1.000.000" in German.
    assert "1.000.000" in " ".join(response.context["form"].errors["total"])


def test_a_stray_confirmation_in_a_link_is_ignored(client, league):
    # 100 for five is 20 each: nothing to confirm, and nothing of it kept in the link.
    response = client.get(url(league), {"total": "100", "method": "equal", "confirm_total": "x" * 500})
    assert response.status_code == 200
    assert "confirm_total" not in response.context["share_url"]
