"""Guest scorers' links (leagues/table/scorer_links.py) and the table's page that makes,
lists and revokes them (leagues/table/views/join.py): who may, what a link is refused for,
when it expires. The guest's own pages are tests/table/test_guest_scorer.py."""

import datetime
import zoneinfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from leagues import exceptions
from leagues.models import Role, ScorerLink
from leagues.table import scorer_links
from leagues.table.meetings import close_meeting_row, reopen_meeting
from tests.factories import LeagueFactory, UserFactory, meeting_for, member

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
BERLIN = zoneinfo.ZoneInfo(settings.TIME_ZONE)


@pytest.fixture
def meeting():
    return meeting_for(LeagueFactory(), NAMES, date=timezone.localdate())


@pytest.fixture
def people(meeting):
    league = meeting.league
    return {
        "keeper": member(league, Role.SCOREKEEPER, first_name="Kai"),
        "admin": member(league, Role.ADMIN, first_name="Ada"),
        "member": member(league, Role.MEMBER, first_name="Mia"),
        "outsider": member(LeagueFactory(), Role.ADMIN, first_name="Otto"),
    }


def url(name, meeting, *args):
    return reverse(name, args=[meeting.league.slug, meeting.pk, *args])


def close(meeting, user):
    """The evening ended ("End the evening" writes this row; its checks are not the point)."""
    close_meeting_row(meeting, user=user)


def make(meeting, name="Jonas", by=None):
    return scorer_links.make_link(meeting=meeting, name=name, by=by)


# --- the token -----------------------------------------------------------------------------


def test_a_token_names_its_link_and_opens_it(meeting):
    link = make(meeting)
    token = scorer_links.token_of(link)
    assert token.startswith(f"{link.pk}.{link.nonce}:")
    assert scorer_links.usable_link(token=token) == link


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # the signature
        lambda t: "9" + t,  # the id
        lambda t: t.replace(".", ".x", 1),  # the nonce
        lambda t: t.split(":")[0],  # no signature
        lambda t: "",
    ],
    ids=["signature", "id", "nonce", "unsigned", "empty"],
)
def test_it_refuses_a_tampered_token(meeting, tamper):
    token = scorer_links.token_of(make(meeting))
    with pytest.raises(scorer_links.LinkRefused) as refused:
        scorer_links.usable_link(token=tamper(token))
    assert refused.value.why == scorer_links.INVALID


def test_it_refuses_a_token_signed_with_another_salt(meeting):
    from django.core import signing

    link = make(meeting)
    token = signing.Signer(salt="kartenliga.something-else").sign(f"{link.pk}.{link.nonce}")
    with pytest.raises(scorer_links.LinkRefused):
        scorer_links.usable_link(token=token)


def test_a_token_of_a_link_made_anew_with_the_same_id_opens_nothing(meeting):
    link = make(meeting)
    token = scorer_links.token_of(link)
    ScorerLink.objects.filter(pk=link.pk).update(nonce="another")
    with pytest.raises(scorer_links.LinkRefused) as refused:
        scorer_links.usable_link(token=token)
    assert refused.value.why == scorer_links.INVALID


# --- when a link works ---------------------------------------------------------------------


def test_a_link_expires_at_six_the_morning_after_the_evening():
    meeting = meeting_for(LeagueFactory(), NAMES, date=datetime.date(2026, 3, 28))
    # The night of the change to summer time: 06:00 in Berlin is 04:00 UTC.
    assert scorer_links.expiry_for(meeting) == datetime.datetime(2026, 3, 29, 6, 0, tzinfo=BERLIN)
    assert scorer_links.expiry_for(meeting) == datetime.datetime(2026, 3, 29, 4, 0, tzinfo=datetime.UTC)


def test_it_refuses_a_link_after_its_expiry(meeting):
    link = make(meeting)
    token = scorer_links.token_of(link)
    assert scorer_links.usable_link(token=token, now=link.expires_at - datetime.timedelta(seconds=1)) == link
    with pytest.raises(scorer_links.LinkRefused) as refused:
        scorer_links.usable_link(token=token, now=link.expires_at)
    assert refused.value.why == scorer_links.EXPIRED


def test_it_refuses_a_revoked_link(meeting, people):
    link = make(meeting)
    scorer_links.revoke_link(link=link, by=people["keeper"])
    with pytest.raises(scorer_links.LinkRefused) as refused:
        scorer_links.usable_link(token=scorer_links.token_of(link))
    assert refused.value.why == scorer_links.REVOKED


def test_a_second_revoke_keeps_who_revoked_it_first(meeting, people):
    link = make(meeting)
    first = scorer_links.revoke_link(link=link, by=people["keeper"]).revoked_at
    again = scorer_links.revoke_link(link=ScorerLink.objects.get(pk=link.pk), by=people["admin"])
    assert (again.revoked_at, again.revoked_by) == (first, people["keeper"])


def test_it_refuses_a_link_once_the_evening_is_closed_even_after_a_reopening(meeting, people):
    link = make(meeting)
    close(meeting, people["keeper"])
    with pytest.raises(scorer_links.LinkRefused) as refused:
        scorer_links.usable_link(token=scorer_links.token_of(link))
    assert refused.value.why == scorer_links.ENDED
    reopen_meeting(meeting=meeting, user=people["admin"], reason="Hand 3 was wrong")
    with pytest.raises(scorer_links.LinkRefused) as refused:
        scorer_links.usable_link(token=scorer_links.token_of(link))
    assert refused.value.why == scorer_links.ENDED
    # A link made after the reopening works.
    meeting.refresh_from_db()
    later = make(meeting)
    assert scorer_links.usable_link(token=scorer_links.token_of(later)) == later


def test_a_link_names_its_own_table_only(meeting):
    link = make(meeting)
    other = meeting_for(meeting.league, NAMES, date=meeting.date)
    scorer_links.for_table(link, pk=meeting.pk)
    with pytest.raises(scorer_links.LinkRefused) as refused:
        scorer_links.for_table(link, pk=other.pk)
    assert refused.value.why == scorer_links.OTHER_TABLE


# --- making one ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "   ", "J\u200bonas", "x" * 41])
def test_it_refuses_a_name_no_player_could_have(meeting, name):
    with pytest.raises(exceptions.InvalidInput) as refused:
        make(meeting, name=name)
    assert refused.value.errors[0]["field"] == "name"
    assert not ScorerLink.objects.exists()


def test_it_keeps_the_name_trimmed(meeting):
    assert make(meeting, name="  Jonas   Weber ").name == "Jonas Weber"


def test_it_makes_no_link_for_a_closed_evening(meeting, people):
    close(meeting, people["keeper"])
    meeting.refresh_from_db()
    with pytest.raises(exceptions.InvalidInput) as refused:
        make(meeting)
    assert refused.value.errors[0]["field"] == "meeting"


def test_it_makes_no_link_for_an_evening_long_past():
    meeting = meeting_for(LeagueFactory(), NAMES, date=timezone.localdate() - datetime.timedelta(days=2))
    with pytest.raises(exceptions.InvalidInput) as refused:
        make(meeting)
    assert refused.value.errors[0]["field"] == "meeting"


# --- the table's page ------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["member", "keeper", "admin"])
def test_every_member_sees_the_code_of_the_tables_sheet(client, meeting, people, who):
    client.force_login(people[who])
    response = client.get(url("meeting_join", meeting))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<svg viewBox="0 0 ' in html and 'class="scan-qr"' in html
    assert f"http://testserver/l/{meeting.league.slug}/m/{meeting.pk}/" in html
    assert ("Guest scorers" in html) is (who != "member")


def test_the_sheet_links_to_the_tables_page(client, meeting, people):
    client.force_login(people["member"])
    html = client.get(url("meeting", meeting)).content.decode()
    assert url("meeting_join", meeting) in html


def test_an_outsider_gets_no_table_page(client, meeting, people):
    client.force_login(people["outsider"])
    assert client.get(url("meeting_join", meeting)).status_code == 404


@pytest.mark.parametrize("who", ["keeper", "admin"])
def test_a_scorekeeper_or_admin_makes_a_link_and_sees_its_code(client, meeting, people, who):
    client.force_login(people[who])
    response = client.post(url("scorer_link_make", meeting), {"name": "Jonas"})
    link = ScorerLink.objects.get()
    assert (link.name, link.created_by, link.meeting) == ("Jonas", people[who], meeting)
    assert response.status_code == 302
    assert response["Location"] == url("meeting_join", meeting) + f"?shown={link.pk}#link-{link.pk}"
    html = client.get(response["Location"]).content.decode()
    address = reverse("guest_table", kwargs={"token": scorer_links.token_of(link), "pk": meeting.pk})
    assert f'value="http://testserver{address}"' in html
    assert html.count('class="scan-qr"') == 2  # the sheet's code and the guest's


def test_a_member_may_not_make_a_link(client, meeting, people):
    client.force_login(people["member"])
    assert client.post(url("scorer_link_make", meeting), {"name": "Jonas"}).status_code == 403
    assert not ScorerLink.objects.exists()


def test_anonymous_is_sent_to_log_in(client, meeting):
    link = make(meeting)
    for address in (url("meeting_join", meeting), url("scorer_link_revoke", meeting, link.pk)):
        response = client.post(address) if "revoke" in address else client.get(address)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    response = client.post(url("scorer_link_make", meeting), {"name": "Jonas"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert ScorerLink.objects.get().revoked_at is None and ScorerLink.objects.count() == 1


def test_it_answers_a_name_left_empty_with_the_form_and_its_message(client, meeting, people):
    client.force_login(people["keeper"])
    response = client.post(url("scorer_link_make", meeting), {"name": " "})
    assert response.status_code == 400
    assert "Please enter the guest&#x27;s name." in response.content.decode()
    response = client.post(url("scorer_link_make", meeting), {"name": "Jo\u200bnas"})
    assert response.status_code == 400
    assert "invisible or control characters" in response.content.decode()
    assert not ScorerLink.objects.exists()


def test_it_answers_a_link_for_a_closed_evening_with_its_reason(client, meeting, people):
    close(meeting, people["keeper"])
    client.force_login(people["keeper"])
    response = client.post(url("scorer_link_make", meeting), {"name": "Jonas"})
    assert response.status_code == 400
    assert "This evening has ended" in response.content.decode()


@pytest.mark.parametrize("who", ["keeper", "admin"])
def test_a_scorekeeper_or_admin_revokes_a_link(client, meeting, people, who):
    link = make(meeting, by=people["admin"])
    client.force_login(people[who])
    response = client.post(url("scorer_link_revoke", meeting, link.pk))
    assert response.status_code == 302
    link.refresh_from_db()
    assert link.revoked_by == people[who] and link.revoked_at is not None
    html = client.get(url("meeting_join", meeting)).content.decode()
    assert "withdrawn by" in html and url("scorer_link_revoke", meeting, link.pk) not in html


def test_a_member_may_not_revoke_a_link(client, meeting, people):
    link = make(meeting)
    client.force_login(people["member"])
    assert client.post(url("scorer_link_revoke", meeting, link.pk)).status_code == 403
    link.refresh_from_db()
    assert link.revoked_at is None


def test_a_link_of_another_table_is_not_revoked_through_this_one(client, meeting, people):
    other = meeting_for(meeting.league, NAMES, date=meeting.date)
    link = make(other)
    client.force_login(people["keeper"])
    assert client.post(url("scorer_link_revoke", meeting, link.pk)).status_code == 404
    link.refresh_from_db()
    assert link.revoked_at is None


def test_the_page_lists_the_tables_links_with_what_became_of_each(client, meeting, people):
    working = make(meeting, name="Jonas", by=people["keeper"])
    revoked = scorer_links.revoke_link(link=make(meeting, name="Lena"), by=people["admin"])
    expired = make(meeting, name="Tim")
    ScorerLink.objects.filter(pk=expired.pk).update(expires_at=timezone.now())
    make(meeting_for(meeting.league, NAMES, date=meeting.date), name="Elsewhere")
    client.force_login(people["keeper"])
    html = client.get(url("meeting_join", meeting)).content.decode()
    assert "Jonas" in html and "Lena" in html and "Tim" in html and "Elsewhere" not in html
    assert url("scorer_link_revoke", meeting, working.pk) in html
    assert url("scorer_link_revoke", meeting, revoked.pk) not in html
    assert url("scorer_link_revoke", meeting, expired.pk) not in html
    assert "withdrawn by Ada" in html and "expired" in html


def test_the_page_shows_no_code_of_a_revoked_link(client, meeting, people):
    link = scorer_links.revoke_link(link=make(meeting), by=people["keeper"])
    client.force_login(people["keeper"])
    html = client.get(url("meeting_join", meeting) + f"?shown={link.pk}").content.decode()
    assert html.count('class="scan-qr"') == 1
    assert scorer_links.token_of(link) not in html


def test_a_stranger_to_the_app_cannot_use_the_table_page_of_a_league_he_is_not_in(client, meeting):
    client.force_login(UserFactory())
    assert client.get(url("meeting_join", meeting)).status_code == 404
