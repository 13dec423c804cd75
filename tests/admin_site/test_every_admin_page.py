"""Every model the admin shows: what a staff user can write there (everything else is shown
read-only, or not at all), and no page of it answers a 500, saved unchanged or not."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils import timezone

from leagues.clubs import services as clubs_services
from leagues.models import Hand, Invite, MeetingReopening, Role
from leagues.table import services as table_services
from tests.admin_site.conftest import change_form
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora"]
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}

# What can be written, by model and inline (an inline's rows by their prefix); "DELETE" where
# a row can be removed. Anything else a model holds is read-only here.
WRITABLE = {
    "league": {
        "": {"name", "slug", "variant", "rule_overrides"},
        "memberships": {"role", "DELETE"},
        "players": {"active"},
    },
    "invite": {"": {"role", "expires_at"}},
    "meeting": {"": {"end_time"}, "seats": set()},
    "season": {"": set()},
    "meetingreopening": {"": set()},
    "hand": {"": set()},
    "handresult": {"": set()},
}
ADDABLE = {"league": False, "invite": False, "meeting": False, "season": False, "meetingreopening": False}


@pytest.fixture
def everything(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    chief = member(league, Role.ADMIN)
    meeting = meeting_for(league, NAMES)
    table_services.enter_hand(meeting=meeting, payload=HAND, by=chief)
    now = timezone.now()
    MeetingReopening.objects.create(meeting=meeting, reason="A hand was forgotten.", reopened_at=now, was_closed_at=now)
    clubs_services.create_invite(league=league, role=Role.MEMBER, player=None, user=chief)
    return league


def registered():
    return [(model, model_admin) for model, model_admin in admin.site._registry.items()]


def url_of(model, *parts):
    return "/".join([f"/admin/{model._meta.app_label}/{model._meta.model_name}", *map(str, parts), ""])


def writable(page):
    """The fields the change page ``page`` lets one post, by inline prefix ("" the object's)."""
    admin_form = page.context["adminform"]
    can_change = page.context["has_change_permission"]
    fields = {"": set(admin_form.form.fields) - set(admin_form.readonly_fields) if can_change else set()}
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        names = set(formset.form.base_fields) - {"id", formset.fk.name, "DELETE"} - set(inline.readonly_fields)
        fields[formset.prefix] = names if inline.has_change_permission else set()
        if inline.has_delete_permission and formset.can_delete:
            fields[formset.prefix].add("DELETE")
    return fields


def test_what_a_staff_user_can_write_is_what_the_app_lets_him(boss, everything):
    seen = set()
    for model, _model_admin in registered():
        if model._meta.app_label != "leagues":
            continue
        name = model._meta.model_name
        seen.add(name)
        obj = model.objects.first()
        page = boss.get(url_of(model, obj.pk, "change"))
        assert page.status_code == 200, name
        assert writable(page) == WRITABLE[name], name
        assert (boss.get(url_of(model, "add")).status_code == 200) == ADDABLE.get(name, False), name
    assert seen == set(WRITABLE)


def test_no_admin_page_answers_a_500(boss, everything):
    boss.raise_request_exception = False
    for model, _model_admin in registered():
        for obj in model.objects.all()[:3]:
            for parts in [(), ("add",), (obj.pk, "change"), (obj.pk, "delete"), (obj.pk, "history")]:
                assert boss.get(url_of(model, *parts)).status_code in (200, 302, 403), (model, parts)
            page = boss.get(url_of(model, obj.pk, "change"))
            if page.context and page.context.get("has_change_permission"):
                response = boss.post(url_of(model, obj.pk, "change"), change_form(page))
                assert response.status_code == 302, (model, obj)
    assert Hand.objects.count() == 1 and Invite.objects.count() == 1
    assert boss.get(everything.get_absolute_url()).status_code == 200
    assert get_user_model().objects.count() >= 2
