"""At the table: starting a meeting, the evening's sheet, entering and correcting hands.

Every figure on these pages comes from one replay of the meeting's hands through scoring/
(``services.calculate_meeting``); no view knows a rule of any game. The hand-entry form of
each game lives in its module under ``leagues.hand_entry`` (see the contract there); this
module renders its ``form`` and ``next`` partials with the context built by ``form_context``:

- ``meeting``, ``players`` (names in seat order), ``result`` (the replay of the hands before
  the one being entered), ``next`` (``result["next"]``), ``active`` (who plays the hand being
  entered), ``rules`` (every option in force), ``hand_number`` (1-based);
- ``initial`` (``initial_from_payload`` of the hand being corrected, or of the hand that
  failed to save) and ``errors`` ({hand field: [messages]}) for the hand being entered.

A problem the form partial does not show on one of its fields is listed above the form, so
that none is ever hidden.
"""

import functools
import hashlib
import uuid
from collections import defaultdict

import orjson
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import get_template, render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from leagues import field_labels, fragments, hand_history, next_line, pages, selectors, services, sharing, undo
from leagues.forms import TEAM_NAMES, HandEntryForm, HandVersionForm, ReopenMeetingForm, StartMeetingForm
from leagues.hand_entry import form_module
from leagues.hand_entry.words import hand_words
from leagues.models import Hand, Role
from leagues.permissions import league_for, meeting_for
from leagues.templatetags.sheet import ROUND_WORDS, round_letters, texts
from scoring.registry import START_TOTALS, TEAMS, get_game


def _meeting(request, slug, pk, role=Role.MEMBER):
    # The meeting with its season and host (shown on every page); the pennant holder and who
    # closed the evening are read when there is one.
    return meeting_for(user=request.user, slug=slug, pk=pk, role=role)


def _can_write(membership):
    return membership.allows(Role.SCOREKEEPER)


# --- the replay, shaped for the page ----------------------------------------------------------


def _seated(meeting):
    """The meeting's seated players in seat order (pk, name, position), read once per request:
    the page, its form and its replay all need them (they were read two or three times)."""
    seats = getattr(meeting, "_seated", None)
    if seats is None:
        seats = meeting._seated = services.seats_of(meeting)
    return seats


def _seat_names(meeting):
    return [seat.name for seat in _seated(meeting)]


def _replay(meeting, payloads, carried=None):
    """The replay, or (None, problems) when the stored hands no longer fit (never a 500).
    ``carried``: ``services.carried_rounds_for(meeting)``, when the caller asked it already."""
    try:
        return services.calculate_meeting(meeting, payloads=payloads, players=_seated(meeting), carried=carried), []
    except services.InvalidInput as error:
        return None, _page_errors(meeting, error.errors)


def _carried_rounds(meeting):
    """``services.carried_rounds_for(meeting)``, asked once by a write for its form's replay
    and its own (a carrying league reads the previous evening's cache for it: two queries each
    time); None when the previous evening no longer adds up: the replay then says so."""
    try:
        return services.carried_rounds_for(meeting)
    except services.InvalidInput:
        return None


def _page_errors(meeting, errors):
    """A service's problems in the words of the page's forms (leagues/field_labels.py)."""
    if not errors:
        return errors
    names = _seat_names(meeting) + list(meeting.teams or ())
    return field_labels.page_errors(errors, game=meeting.game, players=names)


def _errors_by_field(errors, number):
    """Split problems into those of hand ``number`` by field, and the rest as lines."""
    by_field = defaultdict(list)
    others = []
    for error in errors:
        if error.get("hand") in (number, None) and error.get("field"):
            by_field[error["field"]].append(error["message"])
        elif error.get("hand") not in (number, None):
            others.append(_("Hand %(number)s: %(message)s") % {"number": error["hand"], "message": error["message"]})
        else:
            others.append(error["message"])
    return dict(by_field), others


def form_context(request, meeting, *, players, result, module, initial=None, errors=None, hand_number=None):
    """What a game's ``form`` and ``next`` partials are rendered with (see the module doc).

    The form partial is rendered here so that any problem it did not show on a field (one
    on a field it has no input for, or on another hand) is listed above it: none is hidden.
    """
    nxt = result["next"]
    by_field, others = _errors_by_field(errors or [], hand_number)
    context = {
        "meeting": meeting,
        "players": players,
        "result": result,
        "next": nxt,
        "active": nxt.get("active", players),
        "rules": result.get("rules", {}),
        "hand_number": hand_number,
        "initial": initial or {},
        "errors": by_field,
    }
    if initial or errors:
        extra = getattr(module, "extra_context", None)
        if extra is not None:
            context.update(extra(result))
        html = render_to_string(module.TEMPLATE + "#form", context, request=request)
    else:
        html = _fresh_form_html(module, context)
    others += [message for messages_ in by_field.values() for message in messages_ if escape(message) not in html]
    context.update({"game_form_html": html, "other_errors": others})
    return context


# What of a replay the hand forms read (their templates and ``extra_context``): the form is
# rendered from these alone, so that they are all a kept form can depend on.
FORM_RESULT_PARTS = ("game", "variant", "rules", "next", "parties", "team_members")


def _fresh_form_html(module, context):
    """A game's empty hand form (nothing typed, no problems: every GET of the meeting page and
    the form after each saved hand), kept by exactly what it is rendered from (issue 12:
    2.5 ms of the meeting page's 13). It is rendered from a plain context, with no request and
    no context processors, holding the hand's number, the players, who is active, and the
    parts of the replay that the forms read (``FORM_RESULT_PARTS``), so that nothing outside
    the key can reach it: a kept form is never stale. A game whose module says what its form
    reads (``form_parts``) is kept under that and who is active alone, and rendered from no
    more. The idempotency key and the CSRF token stay outside it, in the meeting page's
    <form>."""
    result = context["result"]
    narrow = getattr(module, "form_parts", None)
    if narrow is not None:
        # The game says what its form reads (hand_entry/__init__.py): kept under that alone,
        # one form serves every hand with the same players, round and soloist.
        part = {"next": {}, "rules": None, **narrow(result)}
        data = {"module": module.__name__, "active": list(context["active"]), "result": part}
    else:
        part = {name: result.get(name) for name in FORM_RESULT_PARTS}
        data = {
            "module": module.__name__,
            "hand_number": context["hand_number"],
            "players": list(context["players"]),
            "active": list(context["active"]),
            "result": part,
        }

    def plain_context():
        plain = {
            **data,
            "next": part["next"],
            "rules": part["rules"] or {},
            "initial": {},
            "errors": {},
        }
        extra = getattr(module, "extra_context", None)
        if extra is not None:
            plain.update(extra(part))
        return plain

    return fragments.rendered(module.TEMPLATE + "#form", data, plain_context)


def table_context(
    request,
    meeting,
    membership,
    *,
    initial=None,
    errors=None,
    conflict=None,
    idempotency_key=None,
    closed_refusal=None,
    replayed=None,
    hands=None,
    sheet=True,
    csrf_token=None,
    undone=None,
):
    """The block that htmx swaps after each hand: what comes next, the form and the sheet.

    A fixed number of queries whatever the number of hands: the hands in one query, the
    seats in one, and one replay (no per-hand reads). The hand form gets a fresh idempotency
    key each time it is rendered (or keeps ``idempotency_key``, when nothing was saved).
    ``replayed``: (the live hands, their replay) a write just made; used instead of replaying
    again when the live hands are still those (same hands, same versions), else ignored.
    ``hands``: every hand of the meeting as ``selectors.meeting_hands`` gives them, when the
    caller read them under the meeting's lock (and wrote nothing since but what it adds).
    ``sheet``: False when the caller sends the sheet's rows itself (``_appended``): the
    context then has the rows, not their HTML. ``csrf_token``: what the forms carry instead
    of the request's own token (the kept page's stand-in, leagues/pages.py). ``undone``: the
    hand this user just undid (its id, or the text of it from the page's address), whose
    undo the table offers to undo (leagues/undo.py, ``offers``).
    """
    if hands is None:
        hands = selectors.meeting_hands(meeting=meeting, entered_by=False)
    live = [h for h in hands if h.deleted_at is None]
    deleted = [h for h in hands if h.deleted_at is not None]
    players = _seat_names(meeting)
    module = form_module(meeting.game)
    if replayed is not None and _same_hands(live, replayed[0]):
        result, broken = replayed[1], []
    else:
        result, broken = _replay(meeting, [h.payload for h in live])
    hand_number = len(live) + 1
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "can_write": _can_write(membership),
        "players": players,
        # Each with the number it had and its game (one query, only when there are any).
        "deleted": hand_history.deleted_hands(hands=deleted, module=module),
        "hand_number": hand_number,
        "broken": broken,
        "conflict": conflict,
        "closed_refusal": closed_refusal,
        "rows": [],
        # Called by the template only where the whole page is rendered (not by htmx's table).
        "outbox_html": functools.partial(outbox_html, request, meeting, can_write=_can_write(membership)),
        "after_end": services.end_time_passed(meeting),
        **evening_context(meeting, membership, result),
    }
    # The last hand's undo for whoever entered it, and the undo of the undo he just made.
    may_undo = _can_write(membership) and not context["evening_over"] and not meeting.imported_totals
    context.update(undo.offers(meeting=meeting, hands=hands, user=request.user, may_write=may_undo, undone=undone))
    # A closed evening's result, to share (leagues/sharing.py): one query, on its page only.
    context["share"] = sharing.evening(request, meeting, seats=_seated(meeting)) if context["closed"] else None
    if meeting.imported_totals:
        # An evening copied from paper as totals (leagues/paper_import.py): no hands, no form;
        # the page shows the totals as written.
        context["imported_totals"] = selectors.imported_totals(meeting=meeting)
        context["can_write"] = False
        context["outbox_html"] = ""
        return context
    if result is None:
        return context
    nxt = result["next"]
    active = nxt.get("active", players)
    context.update(
        form_context(
            request,
            meeting,
            players=players,
            result=result,
            module=module,
            initial=initial,
            errors=errors,
            hand_number=hand_number,
        )
    )
    context.update(
        {
            "parties": result["parties"],
            "totals": result["totals"],
            "rows": selectors.sheet_rows(result=result, live_hands=live),
            "dealer": nxt.get("dealer"),
            # The dealer is named by the game's own panel (with whether he sits out).
            "sitting_out": [p for p in players if p not in active and p != nxt.get("dealer")],
            "host_round_games_left": nxt.get("host_round_games_left"),
            "hand_url": reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk}),
            "idempotency_key": idempotency_key or uuid.uuid4(),
        }
    )
    # The legend of the special rounds only on a sheet that has such rows (Doppelkopf's).
    context["special_rounds"] = any(row["round_label"] for row in context["rows"])
    # A table that says something of its own (someone else's hand, a refusal) is not one to
    # append the next hand to: the next answer sends it whole again, without the notice.
    shown_whole = conflict is None and closed_refusal is None and not broken
    context["sheet_version"] = sheet_version(meeting, hands, result) if shown_whole else ""
    if sheet:
        context["sheet_html"] = sheet_html(meeting, context["rows"], parties=result["parties"])
    if not context["evening_over"]:
        csrf = csrf_input(request, csrf_token)
        context["next_card_html"] = next_card_html(request, context, module=module, csrf=csrf)
        if context["can_write"]:
            context["hand_form_html"] = hand_form_html(context, csrf=csrf)
    return context


def csrf_input(request, token=None):
    """The CSRF field of a form rendered by Jinja2, as Django's {% csrf_token %} writes it,
    with ``token`` (a kept page's stand-in, leagues/pages.py) or the request's own."""
    return format_html(
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token if token else get_token(request)
    )


def next_words(context):
    """The words with figures in them of the panel above the form
    (templates/jinja2/meetings/next_card.html, which has the constant ones): the next hand's
    number, who deals and who sits out, the running round and its games left, the games left
    in the host round once the end time passed, the solo due or owed; a race game's score
    (leagues/next_line.py)."""
    nxt, names = context["next"], ", ".join
    words = {"title": _("Next: hand %(number)s") % {"number": context["hand_number"]}}
    if nxt.get("dealer"):
        words["dealer"] = _("%(dealer)s deals") % {"dealer": nxt["dealer"]}
    if context.get("sitting_out"):
        words["sitting_out"] = names(context["sitting_out"])
        words["out"] = _("out: %(names)s") % {"names": words["sitting_out"]}
    kind = nxt.get("round")
    if kind and kind != "normal":
        left = nxt.get("round_games_left")
        words["round"] = ROUND_WORDS.get(kind, kind)
        words["round_left"] = ngettext("%(games)s left", "%(games)s left", left) % {"games": left}
    left = context.get("host_round_games_left")
    if context.get("after_end") and left is not None:
        words["end_left"] = ngettext("end time: %(games)s left", "end time: %(games)s left", left) % {"games": left}
        words["host_round_left"] = ngettext(
            "%(games)s game left in the host round", "%(games)s games left in the host round", left
        ) % {"games": left}
    owed = context.get("last_round") and nxt.get("solo_owed")
    if nxt.get("soloist"):
        words["solo"] = _("solo: %(name)s") % {"name": nxt["soloist"]}
    elif owed:
        words["solo_owed"] = next_line.owed_words(nxt["solo_owed"], context.get("players") or ())
    if owed:
        words["last_round_solos"] = names(nxt["solo_owed"])
    league = context.get("league")
    if league is not None and league.game != "doppelkopf" and context.get("result"):
        words.update(next_line.race_words(context["result"]))
    return words


def next_card_html(request, context, *, module, csrf):
    """The panel of what comes next (Jinja2's, kartenliga/jinja2.py says why), with the game's
    own part in it: from its module's ``next_html`` where it has one (Doppelkopf's, by
    Jinja2), else its template's ``next`` partial."""
    own = getattr(module, "next_html", None)
    if own is not None:
        game_html = own(context["next"], context["result"], last_round=context.get("last_round"))
    else:
        game_html = render_to_string(module.TEMPLATE + "#next", context, request=request)
    panel = {**context, "game_next_html": game_html, "w": next_words(context), "csrf_input": csrf}
    return mark_safe(get_template("meetings/next_card.html", using="jinja2").render(panel))  # noqa: S308 (Jinja2's)


def hand_form_html(context, *, csrf):
    """The form of the next hand (Jinja2's), around the game's fields (``game_form_html``),
    with the CSRF field ``csrf`` (``csrf_input``) and the words its hands are said with
    while they wait offline (``say``, leagues/hand_entry/words.py)."""
    number = context["hand_number"]
    words = {
        "enter": _("Enter hand %(number)s") % {"number": number},
        "save": _("Save hand %(number)s") % {"number": number},
    }
    say = hand_words(context["league"].game)
    form = get_template("meetings/hand_form.html", using="jinja2").render(
        {**context, "w": words, "say": say, "csrf_input": csrf}
    )
    return mark_safe(form)  # noqa: S308 (rendered by Jinja2, which escaped what it was given)


def sheet_version(meeting, hands, result):
    """A digest of all that the sheet's rows show: the replay's parties and hands (every
    figure, round and solo), each hand's id and version (deleted ones too: they are listed
    under the sheet), the league's address the rows link to and the language. The form
    carries it; when an entry's form carries the version of the sheet as it stands, the
    phone shows that sheet, and the answer appends the new hand's row to it (issue 12: the
    whole sheet was 2 ms of every entry's answer). "" when the replay cannot be written so
    (then the whole sheet is always sent)."""
    try:
        blob = orjson.dumps(
            [
                meeting.pk,
                meeting.league.slug,
                get_language(),
                result["parties"],
                result["hands"],
                [(hand.pk, hand.version, hand.deleted_at is not None) for hand in hands],
            ]
        )
    except TypeError:
        return ""
    return hashlib.blake2b(blob, digest_size=16).hexdigest()


# The title of a sheet's cell of whoever sat out that hand (the rows' template is Jinja2's:
# it shows words translated here).
SAT_OUT = gettext_lazy("sat out")


def sheet_html(meeting, rows, *, parties):
    """The sheet's rows as HTML, each kept by exactly what it shows (leagues/fragments.py):
    only the rows whose figures or words changed since a worker last showed them are
    rendered, which on the page of 40 hands was most of its time."""
    text = texts()
    slug = meeting.league.slug
    sat_out = text(SAT_OUT)
    return fragments.rendered_rows(
        "meetings/sheet_row.html",
        [
            {
                "slug": slug,
                "meeting": meeting.pk,
                "hand": row["hand"].pk,
                "number": row["number"],
                "round": row["round"],
                "round_label": text(row["round_label"]),
                "letters": [(letter, text(words)) for letter, words in round_letters(row)],
                "cells": [
                    {"out": cell["out"], "solo": cell["solo"], "delta": cell["delta"], "total": cell["total"]}
                    for cell in row["cells"]
                ],
                "game_end": [str(line) for line in row["game_end"]],
                "colspan": len(parties) + 1,
                "sat_out": sat_out,
            }
            for row in rows
        ],
        using="jinja2",
    )


def _same_hands(hands, others):
    """Whether two lists hold the same hands at the same versions (so the same payloads)."""
    return [(h.pk, h.version) for h in hands] == [(h.pk, h.version) for h in others]


def evening_context(meeting, membership, result):
    """The end of the evening for the panel: whether it is over (no form then), closed (and
    by whom), the winner and the pennant fixed (a closed evening's only: over but open, who
    wins it once ended), and which buttons this user gets."""
    over = services.evening_over(meeting, result)
    leader = selectors.evening_leader(meeting=meeting) if over else None
    winner = leader if meeting.closed_at is not None else None
    return {
        "evening_over": over,
        "closed": meeting.closed_at is not None,
        "winner": winner,
        "leader": leader,
        "pennant_to": winner if over and selectors.has_pennant(meeting.game) else None,
        "can_close": _can_write(membership) and services.can_close(meeting, result),
        "can_reopen": meeting.closed_at is not None and membership.allows(Role.ADMIN),
        "last_round": result is not None
        and not over
        and services.has_rounds(result)
        and services.end_time_passed(meeting),
    }


# --- starting a meeting -----------------------------------------------------------------------


def _same_table(*, league, order, host):
    """The last evening's active players in its seat order, turned to start with ``host``
    (put first when he was not there)."""
    players = {p.pk: p for p in league.players.filter(active=True, pk__in=order)}
    table = [players[pk] for pk in order if pk in players]
    if host is not None and host in table:
        start = table.index(host)
        table = table[start:] + table[:start]
    elif host is not None:
        table = [host, *table]
    return table


def _last_evening(league):
    """The league's last evening when it is still open (the start page says so, with a link to
    end it), and its winner, who brings the pennant: None while it is open (no winner yet)."""
    last = selectors.last_meeting(league=league)
    if last is None:
        return None, None
    pennant = selectors.meeting_winner(meeting=last) if selectors.has_pennant(league.game) else None
    return (last if last.closed_at is None else None), pennant


@login_required
@require_http_methods(["GET", "POST"])
def meeting_start(request, slug):
    league, _membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
    spec = get_game(league.game)
    host = selectors.suggested_host(league=league)
    open_evening = None
    if request.method == "POST":
        form = StartMeetingForm(request.POST, league=league)
        if form.is_valid():
            data = form.cleaned_data
            try:
                meeting = services.start_meeting(
                    league=league,
                    date=data["date"],
                    end_time=data.get("end_time"),
                    players=data["players"],
                    pennant_holder=data.get("pennant_holder"),
                    pennant_forgotten=data.get("pennant_forgotten", False),
                    teams=data[TEAMS],
                    start_totals=data[START_TOTALS],
                    user=request.user,
                )
            except services.InvalidInput as error:
                players = [p.name for p in data["players"]] + list(data[TEAMS] or ())
                for problem in field_labels.page_errors(error.errors, game=league.game, players=players):
                    field = problem.get("field")
                    form.add_error(field if field in form.fields else "players", problem["message"])
            else:
                messages.success(request, _("The meeting has started. Good game!"))
                return redirect(meeting.get_absolute_url())
        seated = form.seated
        status = 400
    else:
        open_evening, pennant = _last_evening(league)
        form = StartMeetingForm(
            league=league,
            initial={"date": timezone.localdate(), "pennant_holder": pennant.pk if pennant else None},
        )
        seated = [host] if host else []
        status = 200
    order = selectors.last_seat_order(league=league)
    # "As last time": the last evening's table, in its seat order from the host due (who sits
    # first and deals first), those who no longer play left out; one tap instead of one a seat.
    same = _same_table(league=league, order=order, host=host)
    if request.method == "GET" and request.GET.get("same") and same:
        seated = same
    rank = {pk: i for i, pk in enumerate(order)}
    everyone = sorted(league.players.filter(active=True), key=lambda p: (rank.get(p.pk, len(rank)), p.name))
    errors = form.section_errors()
    context = {
        "league": league,
        "form": form,
        "errors": errors,
        "suggested_host": host,
        "same_table": same if len(same) > 1 and same != seated else None,
        "seated": [{"player": p, "team": form.team_of.get(p.name, "")} for p in seated],
        "bench": [p for p in everyone if p not in seated],
        "team_game": form.team_game,
        "team_names": TEAM_NAMES,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "open_evening": open_evening,
    }
    if form.carry_game:
        seated_pks = [p.pk for p in seated]
        context["carry"] = {
            # Seated players first, in seat order (the script keeps it so as seats change).
            "players": [
                {"player": p, "value": form.typed(f"start_{p.pk}"), "seated": p.pk in seated_pks}
                for p in seated + context["bench"]
            ],
            "teams": [{"name": t, "value": form.typed(f"start_team_{t}")} for t in TEAM_NAMES]
            if form.team_game
            else [],
            "open": form.carry_open(),
        }
    return render(request, "meetings/start.html", context, status=status)


# --- the meeting page and entering hands ------------------------------------------------------


def _control_errors(form, number):
    """A hidden input's problems, by field (the page lists them above the form)."""
    return [
        {"hand": number, "field": field, "message": message}
        for field, messages_ in form.errors.items()
        for message in messages_
    ]


@login_required
@require_GET
def meeting(request, slug, pk):
    meeting, membership = _meeting(request, slug, pk)

    def page(stand_ins):
        key = stand_ins.get("idempotency_key")
        context = table_context(
            request,
            meeting,
            membership,
            idempotency_key=key,
            csrf_token=stand_ins.get("csrf_token"),
            undone=request.GET.get("undone"),
        )
        return whole_page(request, {**context, **stand_ins})

    # Kept whole (leagues/pages.py); the end time passing changes the page by itself.
    vary = (membership.role, services.end_time_passed(meeting))
    return pages.kept(request, league=meeting.league, vary=vary, render=page)


# Where the table goes in a kept frame: made anew in each process, so no page holds it by chance.
TABLE_MARK = "table" + uuid.uuid4().hex


def whole_page(request, context, *, status=200):
    """The meeting page of ``context`` (``table_context``'s, with the kept page's stand-ins
    when it is to be kept): its table rendered, its frame (``page_frame``) kept. A page with
    messages to show, or a refusal above the table, is rendered whole."""
    if context.get("refused") or len(messages.get_messages(request)):
        return render(request, "meetings/meeting.html", context, status=status)
    table = render_to_string("meetings/meeting.html#table", context, request)
    token = context.get("csrf_token") or get_token(request)
    frame = page_frame(request, context["meeting"], can_write=context["can_write"], outbox=context["outbox_html"])
    return HttpResponse(frame.replace(pages.CSRF_STAND_IN, str(token)).replace(TABLE_MARK, table), status=status)


def page_frame(request, meeting, *, can_write, outbox):
    """All of the meeting page but its table (``#at-table``, which has ``TABLE_MARK`` in its
    place), kept by exactly what it shows (leagues/fragments.py): the league's and the
    meeting's head, the offline outbox, who is logged in and the address. It is rendered from
    a plain context of those alone (no request: nothing outside the key can reach it), with
    the kept pages' CSRF stand-in for the token. After every hand the sheet's page is shown
    anew; the frame was 3 ms of its 11. ``outbox``: the context's ``outbox_html``
    (``outbox_html`` bound to this page, or "" where the page has no outbox)."""
    league = meeting.league
    holder = meeting.pennant_holder if meeting.pennant_holder_id is not None else None
    data = {
        "league": {"slug": league.slug, "name": league.name},
        "meeting": {
            "pk": meeting.pk,
            "date": meeting.date,
            "host": {"name": meeting.host.name},
            "season": str(meeting.season),
            "end_time": meeting.end_time,
            "pennant_holder": {"name": holder.name} if holder is not None else None,
            "pennant_forgotten": meeting.pennant_forgotten,
        },
        "user": {"pk": request.user.pk, "is_authenticated": request.user.is_authenticated},
        "request": {"get_full_path": request.get_full_path()},
        "can_write": can_write,
        "outbox": True if callable(outbox) else str(outbox),
    }

    def context():
        return {
            **data,
            "outbox_html": outbox() if callable(outbox) else outbox,
            "csrf_token": pages.CSRF_STAND_IN,
            "table_html": TABLE_MARK,
            "messages": (),
        }

    return fragments.rendered("meetings/meeting.html", data, context)


def outbox_html(request, meeting, *, can_write):
    """The offline outbox's section (pwa/outbox.html: its addresses and some twenty phrases for
    static/js/outbox.js), kept by what it shows: 0.3 ms of the meeting page."""
    data = {"can_write": can_write, "meeting": meeting.pk, "user": request.user.pk, "slug": meeting.league.slug}

    def context():
        return {
            "can_write": can_write,
            "meeting": {"pk": meeting.pk},
            "user": {"pk": request.user.pk},
            "league": {"slug": meeting.league.slug},
        }

    return fragments.rendered("pwa/outbox.html", data, context)


def _render_table(request, meeting, membership, *, status=200, **kwargs):
    context = table_context(request, meeting, membership, **kwargs)
    if request.htmx:
        return render(request, "meetings/meeting.html#table", context, status=status)
    return render(request, "meetings/meeting.html", context, status=status)


def _saved(request, meeting, membership, hand, replayed=None, hands=None, appended_to=None):
    # The hand may have closed the evening (the last of its last round): show it closed. A
    # write that just replayed knows (``hand.meeting`` is the meeting it locked and closed).
    if replayed is not None:
        meeting.closed_at, meeting.closed_by_id = hand.meeting.closed_at, hand.meeting.closed_by_id
    else:
        meeting.refresh_from_db(fields=["closed_at", "closed_by"])
    if request.htmx:
        if appended_to is not None:
            answer = _appended(request, meeting, membership, replayed=replayed, hands=hands, before=appended_to)
            if answer is not None:
                return answer
        return _render_table(request, meeting, membership, replayed=replayed, hands=hands)
    messages.success(request, _("Hand %(number)s saved.") % {"number": hand.number or ""})
    return redirect(meeting.get_absolute_url() + "#sheet")


def _appended(request, meeting, membership, *, replayed, hands, before):
    """The answer to an htmx entry whose phone showed the sheet as it stood before it
    (``before``: that sheet's replay): what comes next and the form, and the new hand's row
    appended to the sheet, instead of the whole table (templates/meetings/meeting.html,
    "appended"). None when more than that row changed: an earlier row (``only_appends``),
    the sheet's legend, or the evening (over, or closed): then the whole table is sent."""
    if not before.get("hands") or not services.only_appends(before, replayed[1]):
        return None
    context = table_context(request, meeting, membership, replayed=replayed, hands=hands, sheet=False)
    rows = context["rows"]
    if context["evening_over"] or context["closed"] or len(rows) != len(before["hands"]) + 1:
        return None
    if any(row["round_label"] for row in rows[:-1]) != context["special_rounds"]:
        return None  # the new row brings the legend of the special rounds
    context["new_rows_html"] = sheet_html(meeting, rows[-1:], parties=replayed[1]["parties"])
    response = render(request, "meetings/meeting.html#appended", context)
    return reswap(retarget(response, "#at-entry"), "outerHTML")


@login_required
@require_POST
def hand_add_hx(request, slug, pk):
    """Save the next hand. htmx gets the refreshed table (200), the form with its problems
    (400), or, when another phone entered this hand first, the refreshed table with a notice
    (409). Without JavaScript the same answers come as whole pages. The same form sent
    twice (a double tap, a POST sent again after a reload) enters its hand once."""
    control = HandEntryForm(request.POST)
    control_ok = control.is_valid()
    expected = control.cleaned_data.get("expected_hand") if control_ok else None
    key = control.cleaned_data.get("idempotency_key") if control_ok else None
    shown_sheet = control.cleaned_data.get("sheet") if control_ok else None
    try:
        # The meeting's lock from the start: what the form is read against (the hands, the
        # seats, their replay) is what the write writes after, and it is read once (issue
        # 12: before, the view read it before the lock and the write again under it).
        with transaction.atomic():
            meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER, lock=True)
            module = form_module(meeting.game)
            hands = selectors.meeting_hands(meeting=meeting, entered_by=False)
            if key is not None:
                # Checked before the form is read: once it is saved, the same form may no longer
                # fit the evening (the next dealer sits out now), yet it is the hand already saved.
                earlier = next((h for h in hands if h.idempotency_key == key), None)
                if earlier is not None:
                    return _saved(request, meeting, membership, earlier, hands=hands)
            live = [h for h in hands if h.deleted_at is None]
            number = len(live) + 1
            players = _seat_names(meeting)
            carried = _carried_rounds(meeting)
            result, broken = _replay(meeting, [h.payload for h in live], carried)
            if result is None:
                return _render_table(request, meeting, membership, status=400, hands=hands)
            payload, read_errors = module.payload_from_post(request.POST, players=players, result=result)
            if expected is not None and expected != number:
                # The sheet on this phone was stale: someone else entered that hand already.
                return _conflict(request, meeting, membership, expected, module, payload)
            if not control_ok or read_errors:
                errors = [{"hand": number, "field": field, "message": msg} for field, msg in read_errors.items()]
                errors += _control_errors(control, number)
                return _form_errors(
                    request, meeting, membership, module, players, result, payload, errors, number, key, shown_sheet
                )
            hand, _created, replayed = services.enter_locked_hand(
                meeting=meeting,
                every=hands,
                seated=_seated(meeting),
                payload=payload,
                user=request.user,
                number=expected,
                idempotency_key=key,
                carried=carried,
                before=result,
            )
    except IntegrityError as error:
        try:
            hand, _created, replayed = services.entered_meanwhile(meeting, key, payload, error)
        except services.HandConflict:
            return _conflict(request, meeting, membership, expected or number, module, payload)
        except services.IdempotencyKeyReused as error:
            return _conflict(request, meeting, membership, error.hand.number or number, module, payload)
        return _saved(request, meeting, membership, hand)
    except services.HandConflict:
        return _conflict(request, meeting, membership, expected or number, module, payload)
    except services.IdempotencyKeyReused as error:
        return _conflict(request, meeting, membership, error.hand.number or number, module, payload)
    except services.MeetingClosed as error:
        # A phone that still showed the form: the sheet as it is now, with the evening over.
        return _render_table(request, meeting, membership, status=400, closed_refusal=error.errors[0]["message"])
    except services.InvalidInput as error:
        errors = _page_errors(meeting, error.errors)
        return _form_errors(
            request, meeting, membership, module, players, result, payload, errors, number, key, shown_sheet
        )
    # The table is rendered from the write's own replay and the hands it read under the lock,
    # not read and replayed a third time; the phone that showed the sheet as it
    # stood gets only the new hand's row for it.
    shown = shown_sheet and shown_sheet == sheet_version(meeting, hands, result)
    return _saved(
        request,
        meeting,
        membership,
        hand,
        replayed=(live + [hand], replayed),
        hands=hands + [hand],
        appended_to=result if shown else None,
    )


def _initial(module, payload):
    return module.initial_from_payload(payload) if isinstance(payload, dict) else {}


def _form_errors(request, meeting, membership, module, players, result, payload, errors, number, key, sheet=None):
    """The form again with its problems on the fields, status 400, nothing saved. It keeps
    its idempotency key (nothing was saved with it), and the version of the sheet its phone
    shows (``sheet``: htmx swaps only the form, the sheet stays as it was)."""
    if not request.htmx:
        return _render_table(
            request,
            meeting,
            membership,
            status=400,
            initial=_initial(module, payload),
            errors=errors,
            idempotency_key=key,
        )
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "can_write": True,
        "hand_url": reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk}),
        "idempotency_key": key or uuid.uuid4(),
        "sheet_version": sheet or "",
        # The save bar keeps the last hand's undo (the form it submits stays on the page).
        "undo": undo.offers(
            meeting=meeting,
            hands=selectors.meeting_hands(meeting=meeting, entered_by=False),
            user=request.user,
            may_write=True,
        )["undo"],
        **form_context(
            request,
            meeting,
            players=players,
            result=result,
            module=module,
            initial=_initial(module, payload),
            errors=errors,
            hand_number=number,
        ),
    }
    response = HttpResponse(hand_form_html(context, csrf=csrf_input(request)), status=400)
    return reswap(retarget(response, "#hand-form"), "outerHTML")


def _conflict(request, meeting, membership, number, module, payload):
    """Someone else entered hand ``number`` first: show the refreshed sheet and keep what
    this phone entered in the form (nothing is saved twice, nothing typed is lost)."""
    response = _render_table(
        request, meeting, membership, status=409, initial=_initial(module, payload), conflict={"number": number}
    )
    if request.htmx:
        response = reswap(retarget(response, "#at-table"), "outerHTML")
    return response


def _live_index(live, hand):
    for index, other in enumerate(live):
        if other.pk == hand.pk:
            return index
    return None


def _why_context(request, meeting, membership, hand):
    hands = selectors.meeting_hands(meeting=meeting)
    live = [h for h in hands if h.deleted_at is None]
    module = form_module(meeting.game)
    figures = row = None
    index = _live_index(live, hand)
    result, broken = _replay(meeting, [h.payload for h in live])
    if result is not None and index is not None:
        figures = result["hands"][index]
        # The whole sheet, so that a won game is numbered as the sheet numbers it.
        row = selectors.sheet_rows(result=result, live_hands=live)[index]
    labels = getattr(module, "LABELS", {})
    return {
        "meeting": meeting,
        "league": meeting.league,
        "hand": hand,
        "number": index + 1 if index is not None else None,
        # A deleted hand: the number it had on the sheet (one query, for such a hand only).
        "former": hand_history.former_numbers(hand_ids=[hand.pk]).get(hand.pk) if index is None else None,
        "winner": labels.get(figures.get("winner"), figures.get("winner")) if figures else None,
        "triggers": [labels.get(t, t) for t in (figures.get("triggers") or ())] if figures else [],
        "figures": figures,
        "row": row,
        "parties": result["parties"] if result else [],
        "lines": selectors.describe_payload(module=module, payload=hand.payload),
        # A closed evening's hands are read-only: no correct, delete or restore buttons.
        "can_write": _can_write(membership) and meeting.closed_at is None,
        "broken": broken,
    }


@login_required
@require_GET
def hand_why(request, slug, pk, hand_pk):
    """Why a hand scored what it did: value breakdown, multiplier, triggers, the hand."""
    meeting, membership = _meeting(request, slug, pk)
    hand = get_object_or_404(Hand.objects.select_related("entered_by"), pk=hand_pk, meeting=meeting)
    template = "meetings/hand.html#why" if request.htmx else "meetings/hand.html"
    return render(request, template, _why_context(request, meeting, membership, hand))


def _stale_notice(error):
    """What the 409 page says about the hand someone else changed meanwhile."""
    return {"by": error.changed_by, "at": error.changed_at, "deleted": error.hand.deleted_at is not None}


def _stale(request, meeting, membership, error):
    """A correction, delete or restore of a hand someone else changed meanwhile: nothing is
    saved; the page shows the hand as it is now, who changed it and when (409)."""
    hand = Hand.objects.select_related("entered_by").get(pk=error.hand.pk)
    context = _why_context(request, meeting, membership, hand)
    context["stale"] = _stale_notice(error)
    return render(request, "meetings/hand.html", context, status=409)


@login_required
@require_http_methods(["GET", "POST"])
def hand_edit(request, slug, pk, hand_pk):
    """Correct a hand: the same form, pre-filled; everything after it is replayed. The form
    carries the version of the hand it showed: when someone else changed the hand since,
    nothing is saved and the page shows the hand as it is now, with what was typed (409)."""
    if request.method == "GET":
        meeting, membership = _meeting(request, slug, pk, role=Role.SCOREKEEPER)
        hand = get_object_or_404(Hand, pk=hand_pk, meeting=meeting, deleted_at=None)
        return _edit_page(request, meeting, membership, hand)
    control = HandVersionForm(request.POST)
    # The meeting's lock from the start: the hands the form is read against are those the
    # correction writes over, read once (issue 12: before the lock and again under it).
    with transaction.atomic():
        meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER, lock=True)
        try:
            live, hand = services.hands_with(meeting, hand_pk)
        except Hand.DoesNotExist:
            raise Http404 from None
        if not control.is_valid():
            return _edit_page(request, meeting, membership, hand, post=request.POST, control=control, live=live)
        version = control.cleaned_data["version"]
        if hand.deleted_at is not None:
            # Deleted since this phone opened the form: no correction can apply to it.
            by, at = services.last_change(hand)
            return _stale(request, meeting, membership, services.StaleHand(hand, changed_by=by, changed_at=at))
        return _edit_page(request, meeting, membership, hand, post=request.POST, version=version, live=live)


def _edit_page(request, meeting, membership, hand, *, post=None, version=None, control=None, stale=None, live=None):
    """The correction's page; ``live``: the meeting's live hands as ``services.hands_with``
    gives them, when the caller holds the meeting's lock (a POST): then the correction is
    written with them (``services.change_locked_hand``), else read here for the form."""
    locked = live is not None
    if live is None:
        live = [h for h in selectors.meeting_hands(meeting=meeting, entered_by=False) if h.deleted_at is None]
    index = _live_index(live, hand)
    if index is None:  # deleted a moment ago
        by, at = services.last_change(hand)
        return _stale(request, meeting, membership, services.StaleHand(hand, changed_by=by, changed_at=at))
    number = index + 1
    players = _seat_names(meeting)
    module = form_module(meeting.game)
    # The form sees the evening as it stood before this hand (its dealer, who was active).
    carried = _carried_rounds(meeting) if locked else None
    before, broken = _replay(meeting, [h.payload for h in live[:index]], carried)
    if before is None:
        # The hands before it no longer replay (a rule or a name changed since): the form
        # cannot be built, so show the sheet with what is wrong (fix or delete those first).
        context = table_context(request, meeting, membership)
        context["broken"] = context["broken"] or broken
        return render(request, "meetings/meeting.html", context, status=400)
    status = 200
    initial = module.initial_from_payload(hand.payload)
    errors = []
    shown_version = hand.version
    if post is not None:
        payload, read_errors = module.payload_from_post(post, players=players, result=before)
        initial = _initial(module, payload)
        status = 400
        errors = [{"hand": number, "field": f, "message": m} for f, m in read_errors.items()]
        if control is not None:
            errors += _control_errors(control, number)
        elif not errors and stale is None:
            try:
                if locked:
                    # Its own savepoint: a correction may raise after writing (a later evening
                    # that would no longer add up), and then nothing of it may stay.
                    with transaction.atomic():
                        services.change_locked_hand(
                            meeting=meeting,
                            hands=live,
                            hand=hand,
                            seated=_seated(meeting),
                            payload=payload,
                            user=request.user,
                            version=version,
                            carried=carried,
                        )
                else:
                    services.change_hand(hand=hand, payload=payload, user=request.user, version=version)
            except services.StaleHand as error:
                if error.hand.deleted_at is not None:
                    return _stale(request, meeting, membership, error)
                # Built again from the hand as it is now, keeping what this phone typed.
                return _edit_page(
                    request,
                    meeting,
                    membership,
                    error.hand,
                    post=post,
                    version=version,
                    stale=error,
                    live=live if locked else None,
                )
            except services.InvalidInput as error:
                errors = _page_errors(meeting, error.errors)
            else:
                messages.success(request, _("Hand %(number)s corrected.") % {"number": number})
                return redirect(meeting.get_absolute_url() + f"#hand-{number}")
        if stale is not None:
            status = 409
        elif version is not None:
            # A form with problems keeps the version its phone saw, so that saving it again
            # still cannot overwrite a correction made by someone else in the meantime.
            shown_version = version
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "hand": hand,
        "number": number,
        "version": shown_version,
        "stale": _stale_notice(stale) if stale is not None else None,
        "stale_lines": selectors.describe_payload(module=module, payload=hand.payload) if stale is not None else [],
        **form_context(
            request,
            meeting,
            players=players,
            result=before,
            module=module,
            initial=initial,
            errors=errors,
            hand_number=number,
        ),
    }
    return render(request, "meetings/hand_edit.html", context, status=status)


def _refused(request, meeting, membership, error):
    """A delete or restore that would leave the evening impossible: say why, change nothing."""
    _fields, lines = _errors_by_field([{**e, "field": None} for e in _page_errors(meeting, error.errors)], None)
    context = table_context(request, meeting, membership)
    context["refused"] = lines
    return render(request, "meetings/meeting.html", context, status=400)


def _hand_write(request, slug, pk, hand_pk, write, done_message):
    """Delete or restore (``write``) the hand at the version its form showed."""
    meeting, membership = _meeting(request, slug, pk, role=Role.SCOREKEEPER)
    hand = get_object_or_404(Hand.objects.select_related("entered_by"), pk=hand_pk, meeting=meeting)
    control = HandVersionForm(request.POST)
    if not control.is_valid():
        context = _why_context(request, meeting, membership, hand)
        context["refused"] = [message for messages_ in control.errors.values() for message in messages_]
        return render(request, "meetings/hand.html", context, status=400)
    try:
        write(hand=hand, user=request.user, version=control.cleaned_data["version"])
    except services.StaleHand as error:
        return _stale(request, meeting, membership, error)
    except services.InvalidInput as error:
        return _refused(request, meeting, membership, error)
    messages.success(request, done_message)
    return redirect(meeting.get_absolute_url() + "#sheet")


@login_required
@require_POST
def hand_delete(request, slug, pk, hand_pk):
    return _hand_write(
        request, slug, pk, hand_pk, services.delete_hand, _("Hand deleted. You can restore it below the sheet.")
    )


@login_required
@require_POST
def hand_restore(request, slug, pk, hand_pk):
    return _hand_write(request, slug, pk, hand_pk, services.restore_hand, _("Hand restored."))


# --- the end of the evening -------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def meeting_reopen(request, slug, pk):
    """An admin reopens a closed evening, saying why (kept in its history)."""
    meeting, membership = _meeting(request, slug, pk, role=Role.ADMIN)
    form = ReopenMeetingForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                services.reopen_meeting(meeting=meeting, user=request.user, reason=form.cleaned_data["reason"])
            except services.InvalidInput as error:
                for problem in error.errors:
                    form.add_error("reason" if problem["field"] == "reason" else None, problem["message"])
            else:
                messages.success(request, _("The evening is open again."))
                return redirect(meeting.get_absolute_url())
    context = {"meeting": meeting, "league": meeting.league, "form": form}
    return render(request, "meetings/reopen.html", context, status=status)


# --- history ---------------------------------------------------------------------------------


@login_required
@require_GET
def meeting_history(request, slug, pk):
    meeting, membership = _meeting(request, slug, pk)
    hands = selectors.meeting_hands(meeting=meeting)
    live_numbers = {h.pk: i for i, h in enumerate((h for h in hands if h.deleted_at is None), start=1)}
    entries = selectors.history_entries(
        records=selectors.meeting_history(meeting=meeting),
        live_numbers=live_numbers,
        module=form_module(meeting.game),
        names=hand_history.member_names(league=meeting.league),
    )
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "entries": entries,
        "deleted": [h for h in hands if h.deleted_at is not None],
        "can_write": _can_write(membership) and meeting.closed_at is None,
        "reopenings": meeting.reopenings.select_related("reopened_by", "was_closed_by"),
    }
    return render(request, "meetings/history.html", context)


urlpatterns = [
    path("l/<slug:slug>/meetings/new/", meeting_start, name="meeting_start"),
    path("l/<slug:slug>/m/<int:pk>/", meeting, name="meeting"),
    path("l/<slug:slug>/m/<int:pk>/hands/_hx/", hand_add_hx, name="hand_add_hx"),
    path("l/<slug:slug>/m/<int:pk>/history/", meeting_history, name="meeting_history"),
    path("l/<slug:slug>/m/<int:pk>/reopen/", meeting_reopen, name="meeting_reopen"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/", hand_why, name="hand_why"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/edit/", hand_edit, name="hand_edit"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/delete/", hand_delete, name="hand_delete"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/restore/", hand_restore, name="hand_restore"),
]
