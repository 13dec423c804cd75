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

import uuid
from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from leagues import exceptions, field_labels, games
from leagues.models import Hand, Role
from leagues.permissions import league_for, meeting_for
from leagues.seasons import selectors as seasons_selectors
from leagues.table import evening, hand_history, meetings, next_line, replay, services, sharing, sheet, undo
from leagues.table import selectors as table_selectors
from leagues.table.forms import TEAM_NAMES, HandEntryForm, HandVersionForm, ReopenMeetingForm, StartMeetingForm
from leagues.table.hand_entry import form_module
from leagues.table.hand_entry.words import hand_words
from leagues.templatetags.sheet import ROUND_WORDS
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
        seats = meeting._seated = table_selectors.seats_of(meeting)
    return seats


def _seat_names(meeting):
    return [seat.name for seat in _seated(meeting)]


def _replay(meeting, payloads, carried=None):
    """The replay, or (None, problems) when the stored hands no longer fit (never a 500).
    ``carried``: ``services.carried_rounds_for(meeting)``, when the caller asked it already."""
    try:
        return replay.calculate_meeting(meeting, payloads=payloads, players=_seated(meeting), carried=carried), []
    except exceptions.InvalidInput as error:
        return None, _page_errors(meeting, error.errors)


def _carried_rounds(meeting):
    """``services.carried_rounds_for(meeting)``, asked once by a write for its form's replay
    and its own (a carrying league reads the previous evening's cache for it: two queries each
    time); None when the previous evening no longer adds up: the replay then says so."""
    try:
        return replay.carried_rounds_for(meeting)
    except exceptions.InvalidInput:
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
    extra = getattr(module, "extra_context", None)
    if extra is not None:
        context.update(extra(result))
    html = render_to_string(module.TEMPLATE + "#form", context, request=request)
    others += [message for messages_ in by_field.values() for message in messages_ if escape(message) not in html]
    context.update({"game_form_html": html, "other_errors": others})
    return context


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
    ``undone``: the hand this user just undid (its id, or the text of it from the page's
    address), whose undo the table offers to undo (leagues/undo.py, ``offers``).
    """
    if hands is None:
        hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
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
        "after_end": evening.end_time_passed(meeting),
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
        context["imported_totals"] = table_selectors.imported_totals(meeting=meeting)
        context["can_write"] = False
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
            "rows": sheet.sheet_rows(result=result, live_hands=live),
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
    if not context["evening_over"]:
        context.update(next_context(context, module=module))
    return context


def next_words(context):
    """The words with figures in them of the panel above the form (the partial ``next_card``
    of templates/meetings/meeting.html, which has the constant ones): the next hand's
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


def next_context(context, *, module):
    """What the panel of what comes next and the hand form add to a table's ``context``: the
    panel's words (``w``), the game's part of the panel (``game_next``, its template's
    ``next`` partial) and the words a hand waiting offline is said with (``say``)."""
    return {
        "w": next_words(context),
        "game_next": module.TEMPLATE + "#next",
        "say": hand_words(context["league"].game),
    }


def _same_hands(hands, others):
    """Whether two lists hold the same hands at the same versions (so the same payloads)."""
    return [(h.pk, h.version) for h in hands] == [(h.pk, h.version) for h in others]


def evening_context(meeting, membership, result):
    """The end of the evening for the panel: whether it is over (no form then), closed (and
    by whom), the winner and the pennant fixed (a closed evening's only: over but open, who
    wins it once ended), and which buttons this user gets."""
    over = evening.evening_over(meeting, result)
    leader = table_selectors.evening_leader(meeting=meeting) if over else None
    winner = leader if meeting.closed_at is not None else None
    return {
        "evening_over": over,
        "closed": meeting.closed_at is not None,
        "winner": winner,
        "leader": leader,
        "pennant_to": winner if over and games.has_pennant(meeting.game) else None,
        "can_close": _can_write(membership) and evening.can_close(meeting, result),
        "can_reopen": meeting.closed_at is not None and membership.allows(Role.ADMIN),
        "last_round": result is not None
        and not over
        and evening.has_rounds(result)
        and evening.end_time_passed(meeting),
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
    last = table_selectors.last_meeting(league=league)
    if last is None:
        return None, None
    pennant = table_selectors.meeting_winner(meeting=last) if games.has_pennant(league.game) else None
    return (last if last.closed_at is None else None), pennant


@login_required
@require_http_methods(["GET", "POST"])
def meeting_start(request, slug):
    league, _membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
    spec = get_game(league.game)
    host = seasons_selectors.suggested_host(league=league)
    open_evening = None
    if request.method == "POST":
        form = StartMeetingForm(request.POST, league=league)
        if form.is_valid():
            data = form.cleaned_data
            try:
                meeting = meetings.start_meeting(
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
            except exceptions.InvalidInput as error:
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
    order = table_selectors.last_seat_order(league=league)
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
    context = table_context(request, meeting, membership, undone=request.GET.get("undone"))
    return render(request, "meetings/meeting.html", context)


def _render_table(request, meeting, membership, *, status=200, **kwargs):
    context = table_context(request, meeting, membership, **kwargs)
    if request.htmx:
        return render(request, "meetings/meeting.html#table", context, status=status)
    return render(request, "meetings/meeting.html", context, status=status)


def _saved(request, meeting, membership, hand, replayed=None, hands=None, append=False):
    # The hand may have closed the evening (the last of its last round): show it closed. A
    # write that just replayed knows (``hand.meeting`` is the meeting it locked and closed).
    if replayed is not None:
        meeting.closed_at, meeting.closed_by_id = hand.meeting.closed_at, hand.meeting.closed_by_id
    else:
        meeting.refresh_from_db(fields=["closed_at", "closed_by"])
    if request.htmx:
        if append:
            answer = _appended(request, meeting, membership, replayed=replayed, hands=hands)
            if answer is not None:
                return answer
        return _render_table(request, meeting, membership, replayed=replayed, hands=hands)
    messages.success(request, _("Hand %(number)s saved.") % {"number": hand.number or ""})
    return redirect(meeting.get_absolute_url() + "#sheet")


def _appended(request, meeting, membership, *, replayed, hands):
    """The answer to an htmx entry of the hand its phone expected: what comes next and the
    form, and the new hand's row appended to the sheet, instead of the whole table
    (templates/meetings/meeting.html, "appended"). None when the sheet changes otherwise:
    its first row (the phone shows no sheet yet), its legend, or the evening (over, or
    closed): then the whole table is sent."""
    context = table_context(request, meeting, membership, replayed=replayed, hands=hands)
    rows = context["rows"]
    if len(rows) < 2 or context["evening_over"] or context["closed"]:
        return None
    if any(row["round_label"] for row in rows[:-1]) != context["special_rounds"]:
        return None  # the new row brings the legend of the special rounds
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
    try:
        # The meeting's lock from the start: what the form is read against (the hands, the
        # seats, their replay) is what the write writes after, and it is read once (issue
        # 12: before, the view read it before the lock and the write again under it).
        with transaction.atomic():
            meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER, lock=True)
            module = form_module(meeting.game)
            hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
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
                return _form_errors(request, meeting, membership, module, players, result, payload, errors, number, key)
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
        except exceptions.HandConflict:
            return _conflict(request, meeting, membership, expected or number, module, payload)
        except exceptions.IdempotencyKeyReused as error:
            return _conflict(request, meeting, membership, error.hand.number or number, module, payload)
        return _saved(request, meeting, membership, hand)
    except exceptions.HandConflict:
        return _conflict(request, meeting, membership, expected or number, module, payload)
    except exceptions.IdempotencyKeyReused as error:
        return _conflict(request, meeting, membership, error.hand.number or number, module, payload)
    except exceptions.MeetingClosed as error:
        # A phone that still showed the form: the sheet as it is now, with the evening over.
        return _render_table(request, meeting, membership, status=400, closed_refusal=error.errors[0]["message"])
    except exceptions.InvalidInput as error:
        errors = _page_errors(meeting, error.errors)
        return _form_errors(request, meeting, membership, module, players, result, payload, errors, number, key)
    # The table is rendered from the write's own replay and the hands it read under the lock,
    # not read and replayed a third time; the phone that expected this hand's number shows
    # the sheet before it, and gets only the new hand's row for it.
    return _saved(
        request,
        meeting,
        membership,
        hand,
        replayed=(live + [hand], replayed),
        hands=hands + [hand],
        append=expected is not None,
    )


def _initial(module, payload):
    return module.initial_from_payload(payload) if isinstance(payload, dict) else {}


def _form_errors(request, meeting, membership, module, players, result, payload, errors, number, key):
    """The form again with its problems on the fields, status 400, nothing saved. It keeps
    its idempotency key (nothing was saved with it); htmx swaps only the form, the sheet
    stays as it was."""
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
        "say": hand_words(meeting.league.game),
        # The save bar keeps the last hand's undo (the form it submits stays on the page).
        "undo": undo.offers(
            meeting=meeting,
            hands=table_selectors.meeting_hands(meeting=meeting, entered_by=False),
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
    response = render(request, "meetings/meeting.html#hand_form", context, status=400)
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
    hands = table_selectors.meeting_hands(meeting=meeting)
    live = [h for h in hands if h.deleted_at is None]
    module = form_module(meeting.game)
    figures = row = None
    index = _live_index(live, hand)
    result, broken = _replay(meeting, [h.payload for h in live])
    if result is not None and index is not None:
        figures = result["hands"][index]
        # The whole sheet, so that a won game is numbered as the sheet numbers it.
        row = sheet.sheet_rows(result=result, live_hands=live)[index]
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
        "lines": sheet.describe_payload(module=module, payload=hand.payload),
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
            return _stale(request, meeting, membership, exceptions.StaleHand(hand, changed_by=by, changed_at=at))
        return _edit_page(request, meeting, membership, hand, post=request.POST, version=version, live=live)


def _edit_page(request, meeting, membership, hand, *, post=None, version=None, control=None, stale=None, live=None):
    """The correction's page; ``live``: the meeting's live hands as ``services.hands_with``
    gives them, when the caller holds the meeting's lock (a POST): then the correction is
    written with them (``services.change_locked_hand``), else read here for the form."""
    locked = live is not None
    if live is None:
        live = [h for h in table_selectors.meeting_hands(meeting=meeting, entered_by=False) if h.deleted_at is None]
    index = _live_index(live, hand)
    if index is None:  # deleted a moment ago
        by, at = services.last_change(hand)
        return _stale(request, meeting, membership, exceptions.StaleHand(hand, changed_by=by, changed_at=at))
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
            except exceptions.StaleHand as error:
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
            except exceptions.InvalidInput as error:
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
        "stale_lines": sheet.describe_payload(module=module, payload=hand.payload) if stale is not None else [],
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
    except exceptions.StaleHand as error:
        return _stale(request, meeting, membership, error)
    except exceptions.InvalidInput as error:
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
                meetings.reopen_meeting(meeting=meeting, user=request.user, reason=form.cleaned_data["reason"])
            except exceptions.InvalidInput as error:
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
    hands = table_selectors.meeting_hands(meeting=meeting)
    live_numbers = {h.pk: i for i, h in enumerate((h for h in hands if h.deleted_at is None), start=1)}
    entries = sheet.history_entries(
        records=table_selectors.meeting_history(meeting=meeting),
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
