"""The empty hand form is kept rendered by what it is rendered from (leagues/views/meetings.py,
``_fresh_form_html``, issue 12): for every game, the kept form is the form the full context
renders, it follows the next hand (number, dealer, rounds), and a form with what was typed or
with problems is never taken from the cache."""

import random
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from leagues import fragments, services
from leagues.hand_entry import form_module
from leagues.models import Role
from leagues.views import meetings as views
from scoring.registry import GAME_MODULES, example_request
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    fragments.clear()
    yield
    fragments.clear()


def evening(game, hands):
    """A meeting of ``game`` (its generator's players, teams and variant) with ``hands`` of its
    random valid hands entered through the writer."""
    request = example_request(game, random.Random(7), hands)
    league = LeagueFactory(game=game, variant=request["variant"])
    meeting = meeting_for(league, request["players"], teams=request.get("teams"))
    for payload in request["hands"]:
        services.add_hand(meeting=meeting, payload=payload, user=None)
    return meeting


def form_of(html):
    return re.search(r'<form[^>]*id="hand-form".*?</form>', html, re.S).group(0)


def full_context_form(meeting):
    """The form as it was rendered before it was kept: the whole replay, the request's
    context processors and the game's extra context."""
    hands = [h for h in meeting.hands.order_by("position") if h.deleted_at is None]
    result = services.calculate_meeting(meeting, payloads=[h.payload for h in hands])
    module = form_module(meeting.game)
    players = [seat.player.name for seat in meeting.seats.in_order()]
    context = {
        "meeting": meeting,
        "players": players,
        "result": result,
        "next": result["next"],
        "active": result["next"].get("active", players),
        "rules": result.get("rules", {}),
        "hand_number": len(hands) + 1,
        "initial": {},
        "errors": {},
        "game_next": module.TEMPLATE + "#next",
    }
    if getattr(module, "extra_context", None):
        context.update(module.extra_context(result))
    return render_to_string(module.TEMPLATE + "#form", context)


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_the_kept_form_is_the_form_the_whole_replay_renders(client, game):
    meeting = evening(game, 3)
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    first = client.get(meeting.get_absolute_url()).content.decode()
    kept = client.get(meeting.get_absolute_url()).content.decode()
    assert full_context_form(meeting) in first
    assert full_context_form(meeting) in kept
    # Only the idempotency key and the CSRF token differ between two renderings of the form.
    fresh = re.compile(r'name="(idempotency_key|csrfmiddlewaretoken)" value="[^"]*"')
    assert fresh.sub("", form_of(first)) == fresh.sub("", form_of(kept))


def test_the_kept_form_follows_the_next_hand(client):
    meeting = evening("doppelkopf", 1)
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    before = client.get(meeting.get_absolute_url()).content.decode()
    services.add_hand(
        meeting=meeting, payload=example_request("doppelkopf", random.Random(7), 2)["hands"][1], user=None
    )
    after = client.get(meeting.get_absolute_url()).content.decode()
    assert form_of(before) != form_of(after)
    assert full_context_form(meeting) in after


def test_a_form_with_problems_is_rendered_afresh(client):
    meeting = evening("doppelkopf", 1)
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    client.get(meeting.get_absolute_url())  # the empty form is kept now
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    post = {"expected_hand": "2", "kind": "normal", "re": ["nobody"], "eyes": "131", "eyes_for": "re"}
    response = client.post(target, post, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="field-error' in html or "field-error" in html
    assert 'value="131"' in html  # what was typed stays


def kept_under(monkeypatch, game):
    """(the data a fresh form of ``game``'s one-hand evening is kept under, the plain context
    it is rendered from, the replay), as ``_fresh_form_html`` hands them to the cache."""
    seen = {}

    def spy(template_name, data, context):
        seen["data"], seen["context"] = data, context()
        return ""

    monkeypatch.setattr(views.fragments, "rendered", spy)
    meeting = evening(game, 1)
    result = services.calculate_meeting(meeting)
    players = [seat.player.name for seat in meeting.seats.in_order()]
    context = {"result": result, "hand_number": 2, "players": players, "active": result["next"].get("active", players)}
    views._fresh_form_html(form_module(game), context)
    return seen["data"], seen["context"], result


def test_the_kept_form_is_keyed_by_what_it_is_rendered_from(monkeypatch):
    # The plain context holds nothing but the key's data and what is worked out from it.
    data, context, result = kept_under(monkeypatch, "doppelkopf")
    # Doppelkopf's form says what it reads (hand_entry/doppelkopf.py, form_parts): the rules,
    # who plays, who must play a solo and whether it is a Ramsch round; not the dealer, the
    # other rounds, nor the hand's number.
    assert set(data["result"]) == {"next", "rules"}
    assert data["result"]["rules"] == result["rules"]
    assert context["next"] == {"active": result["next"]["active"], "round": None, "soloist": None}
    assert "hand_number" not in data and "hand_number" not in context
    assert "request" not in context and "meeting" not in context


def test_a_game_without_form_parts_is_kept_under_every_part_the_forms_read(monkeypatch):
    assert getattr(form_module("thousand"), "form_parts", None) is None
    data, context, result = kept_under(monkeypatch, "thousand")
    assert set(data["result"]) == set(views.FORM_RESULT_PARTS)
    assert data["hand_number"] == 2
    assert context["next"] == result["next"]


@pytest.mark.parametrize("variant", ["club", "ddv"])
def test_one_kept_doppelkopf_form_serves_every_hand_it_fits_all_evening(client, monkeypatch, variant):
    # Over a whole evening (Bock rounds, soli as the random hands bring them), the form on the
    # page is, after every hand, the one the whole replay renders, and a form is rendered only
    # for a table, round and soloist not seen before that evening.
    module = form_module("doppelkopf")
    renders = []
    extra = module.extra_context
    monkeypatch.setattr(module, "extra_context", lambda result: renders.append(1) or extra(result))
    request = example_request("doppelkopf", random.Random(11), 36, variant=variant)
    league = LeagueFactory(game="doppelkopf", variant=request["variant"])
    meeting = meeting_for(league, request["players"])
    client.force_login(member(league, Role.SCOREKEEPER))
    seen, rounds, rendered = set(), set(), 0
    for payload in request["hands"]:
        services.add_hand(meeting=meeting, payload=payload, user=None)
        nxt = services.calculate_meeting(meeting)["next"]
        seen.add((tuple(nxt.get("active") or ()), nxt.get("round") == "ramsch", nxt.get("soloist")))
        rounds.add(nxt.get("round"))
        before = len(renders)
        page = client.get(meeting.get_absolute_url()).content.decode()
        rendered += len(renders) - before
        assert form_of(page).count(full_context_form(meeting)) == 1
    assert rendered == len(seen) < len(request["hands"])
    if variant == "club":  # the house rules' evening went through every kind of special round
        assert {"bock", "ramsch", "pflichtsolo"} <= rounds
