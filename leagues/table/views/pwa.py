"""The installable app: the web app manifest, the service worker and the page it
shows for a page never opened before while offline.

The service worker is a view, not a static file, for two reasons: a worker controls only the
pages under the folder its script is served from, and static files live under /static/ (the
``Service-Worker-Allowed: /`` header widens that); and its template names the static files it
keeps by their real URLs, hashed by collectstatic in production. Its cache version is a hash
of what it renders, so any change of those URLs or of its code makes browsers install the new
worker; ``KARTENLIGA_SW_REVISION`` (a setting, "" unless set) forces one without a change.

The outbox's two views (``outbox_compare``, ``outbox_choice``) serve static/js/outbox.js when a
hand entered offline finds its number taken: both versions side by side, and the
scorekeeper's choice (keep it as the next hand, let it replace theirs, discard it), written by
the services with the hand's idempotency key and recorded in the hand's history.
"""

import hashlib

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from leagues import exceptions, field_labels
from leagues.fields import STALE_FORM, WholeNumberField
from leagues.models import Hand, Meeting, Role
from leagues.permissions import league_for
from leagues.table import outbox_choices, replay, selectors, services, sheet
from leagues.table.hand_entry import form_module

VERSION_MARK = "__SW_VERSION__"


@require_GET
@never_cache
def service_worker(request):
    body = render_to_string(
        "pwa/sw.js",
        {"version": VERSION_MARK, "offline_url": reverse("offline"), "manifest_url": reverse("web_manifest")},
    )
    revision = str(getattr(settings, "KARTENLIGA_SW_REVISION", ""))
    version = hashlib.sha256((body + revision).encode()).hexdigest()[:12]
    response = HttpResponse(body.replace(VERSION_MARK, version), content_type="text/javascript; charset=utf-8")
    # Served from the root so it may control every page, the meeting pages included.
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def web_manifest(request):
    response = render(request, "pwa/manifest.webmanifest", content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request):
    """What the service worker shows for a page that was never opened while online."""
    return render(request, "pwa/offline.html")


# --- the outbox's conflicts ---------------------------------------------------------


class OutboxCompareForm(forms.Form):
    """Which waiting hand is compared: the number it was entered as (its own fields come
    beside, for its game's module to read)."""

    entered_as = WholeNumberField(min_value=1, error_messages=STALE_FORM)


class OutboxChoiceForm(OutboxCompareForm):
    """The choice sent with the waiting hand's fields: which choice and the hand's key; to
    keep it, the number it gets now (``expected_hand``, the sheet's next); to replace theirs,
    which hand and the version of it shown beside the waiting one."""

    choice = forms.ChoiceField(
        choices=[(c, c) for c in (outbox_choices.KEEP, outbox_choices.REPLACE, outbox_choices.DISCARD)],
        error_messages=STALE_FORM,
    )
    idempotency_key = forms.UUIDField(error_messages=STALE_FORM)
    expected_hand = WholeNumberField(min_value=1, required=False, error_messages=STALE_FORM)
    hand = WholeNumberField(min_value=1, required=False, error_messages=STALE_FORM)
    version = WholeNumberField(min_value=1, required=False, error_messages=STALE_FORM)

    NEEDS = {
        outbox_choices.KEEP: ("expected_hand",),
        outbox_choices.REPLACE: ("hand", "version"),
        outbox_choices.DISCARD: (),
    }

    def clean(self):
        data = super().clean()
        for name in self.NEEDS.get(data.get("choice"), ()):
            if data.get(name) is None and name not in self.errors:
                self.add_error(name, STALE_FORM["required"])
        return data


def _outbox_meeting(request, slug, pk):
    # Only a scorekeeper has an outbox, and only he may replace a stored hand (as correct it).
    league, _membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
    return get_object_or_404(Meeting.objects.select_related("league"), pk=pk, league=league)


def _players(meeting):
    return [seat.player.name for seat in meeting.seats.in_order()]


def _read(meeting, data, before):
    """The waiting hand as its game's module reads its fields, against the evening as it
    stood before it (``before``: the live hands before it): (module, payload, problems)."""
    module = form_module(meeting.game)
    result = replay.calculate_meeting(meeting, payloads=[h.payload for h in before])
    payload, errors = module.payload_from_post(data, players=_players(meeting), result=result)
    return module, payload, list(errors.values())


def _version_of(meeting, module, before, hand):
    """A hand as the comparison shows it: its lines in the players' words (``describe``) and
    what it scores after ``before`` (the sheet's cells), or the problems that stop it."""
    version = {"hand": hand, "lines": sheet.describe_payload(module=module, payload=hand.payload), "problems": []}
    try:
        result = replay.calculate_meeting(meeting, payloads=[h.payload for h in before] + [hand.payload])
    except exceptions.InvalidInput as error:
        errors = field_labels.page_errors(error.errors, game=meeting.game, players=_players(meeting))
        version["problems"] = [e["message"] for e in errors]
        return version
    version["cells"] = sheet.sheet_rows(result=result, live_hands=[*before, hand])[-1]["cells"]
    return version


@login_required
@require_GET
def outbox_compare(request, slug, pk):
    """Both versions side by side: the hand waiting on this phone (its fields in the query)
    and the hand another phone stored under the number it was entered as."""
    meeting = _outbox_meeting(request, slug, pk)
    form = OutboxCompareForm(request.GET)
    if not form.is_valid():
        return render(request, "pwa/outbox_answer.html", {"problems": _problems(form)}, status=400)
    number = form.cleaned_data["entered_as"]
    live = [h for h in selectors.meeting_hands(meeting=meeting) if h.deleted_at is None]
    theirs = live[number - 1] if number <= len(live) else None
    before = live[: number - 1]
    context = {"number": number, "theirs": None, "mine": None, "broken": [], "league": meeting.league}
    try:
        module, payload, problems = _read(meeting, request.GET, before)
    except exceptions.InvalidInput as error:
        # The stored hands before it no longer replay: nothing to compare with.
        errors = field_labels.page_errors(error.errors, game=meeting.game, players=_players(meeting))
        context["broken"] = [e["message"] for e in errors]
        return render(request, "pwa/outbox_compare.html", context)
    mine = _version_of(meeting, module, before, Hand(meeting=meeting, payload=payload))
    mine["problems"] = problems + mine["problems"]
    context["mine"] = mine
    if theirs is not None:
        context["theirs"] = _version_of(meeting, module, before, theirs)
    return render(request, "pwa/outbox_compare.html", context)


def _problems(form):
    return [message for messages in form.errors.values() for message in messages]


CHOICE_DONE = {
    outbox_choices.KEEP: gettext_lazy("Kept as hand %(number)s."),
    outbox_choices.REPLACE: gettext_lazy("Hand %(number)s replaced."),
    outbox_choices.DISCARD: gettext_lazy("Your hand was discarded; the history keeps it."),
}


@login_required
@require_POST
def outbox_choice(request, slug, pk):
    """Carry out the scorekeeper's choice for a waiting hand whose number was taken: 200 done
    (or done before with this key), 409 when the sheet changed again meanwhile (the number
    taken again, their hand changed since it was shown), 400 with the problems."""
    meeting = _outbox_meeting(request, slug, pk)
    control = OutboxChoiceForm(request.POST)
    if not control.is_valid():
        return render(request, "pwa/outbox_answer.html", {"problems": _problems(control)}, status=400)
    data = control.cleaned_data
    hand, before = _place(meeting, data)
    try:
        _module, payload, problems = _read(meeting, request.POST, before)
        write = {
            "payload": payload,
            "by": request.user,
            "key": data["idempotency_key"],
            "entered_as": data["entered_as"],
        }
        number, problems = _carry_out(meeting, data, hand, write, problems)
    except (exceptions.HandConflict, exceptions.StaleHand, exceptions.IdempotencyKeyReused):
        return render(request, "pwa/outbox_answer.html", {"problems": []}, status=409)
    except exceptions.InvalidInput as error:
        errors = field_labels.page_errors(error.errors, game=meeting.game, players=_players(meeting))
        problems = [e["message"] for e in errors]
    if problems:
        return render(request, "pwa/outbox_answer.html", {"problems": problems}, status=400)
    done = CHOICE_DONE[data["choice"]] % {"number": number}
    return render(request, "pwa/outbox_answer.html", {"done": done})


def _place(meeting, data):
    """The hand a replacement takes the place of (None for the other choices), and the live
    hands the waiting hand is read against: those before theirs for a replacement, the
    whole sheet when kept, those before the number it was entered as if discarded."""
    live = [h for h in selectors.meeting_hands(meeting=meeting) if h.deleted_at is None]
    choice = data["choice"]
    if choice == outbox_choices.REPLACE:
        hand = get_object_or_404(Hand, pk=data["hand"], meeting=meeting)
        return hand, live[: live.index(hand)] if hand in live else live
    return None, live if choice == outbox_choices.KEEP else live[: data["entered_as"] - 1]


def _carry_out(meeting, data, hand, write, problems):
    """Write the scorekeeper's choice unless the hand read has ``problems``: returns the
    number of the hand it concerns and the problems left (none for a discarded hand, which
    is kept as it was read, whatever it lacks)."""
    choice = data["choice"]
    if choice == outbox_choices.DISCARD:
        services.discard_offline_hand(meeting=meeting, **write)
        return write["entered_as"], []
    if problems:
        return None, problems
    if choice == outbox_choices.REPLACE:
        hand = services.replace_hand(hand=hand, version=data["version"], **write).hand
    else:
        hand = services.keep_offline_hand(meeting=meeting, number=data["expected_hand"], **write).hand
    return hand.number, []


urlpatterns = [
    path("sw.js", service_worker, name="service_worker"),
    path("manifest.webmanifest", web_manifest, name="web_manifest"),
    path("offline/", offline, name="offline"),
    path("l/<slug:slug>/m/<int:pk>/outbox/compare/", outbox_compare, name="outbox_compare"),
    path("l/<slug:slug>/m/<int:pk>/outbox/choice/", outbox_choice, name="outbox_choice"),
]
