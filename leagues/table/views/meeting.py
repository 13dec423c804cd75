"""The meeting page: the evening's sheet, what comes next and the hand form, and the table
context every page at the table (hands.py, undo.py) renders it with.

Every figure on these pages comes from one replay of the meeting's hands through scoring/
(``replay.calculate_meeting``); no view knows a rule of any game. The hand-entry form of
each game lives in its module under ``leagues.table.hand_entry`` (see the contract there); this
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

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from leagues import exceptions, field_labels, games
from leagues.cashbox.views.settling import settle_context
from leagues.models import Role
from leagues.permissions import meeting_for
from leagues.table import evening, hand_history, next_line, replay, sharing, sheet, undo
from leagues.table import selectors as table_selectors
from leagues.table.hand_entry import form_module
from leagues.table.hand_entry.words import hand_words
from leagues.templatetags.sheet import ROUND_WORDS


def member_meeting(request, slug, pk, role=Role.MEMBER):
    # The meeting with its season and host (shown on every page); the pennant holder and who
    # closed the evening are read when there is one.
    return meeting_for(user=request.user, slug=slug, pk=pk, role=role)


def can_write(membership):
    return membership.allows(Role.SCOREKEEPER)


def seated(meeting):
    """The meeting's seated players in seat order (pk, name, position), read once per request:
    the page, its form and its replay all need them (else each would read them)."""
    seats = getattr(meeting, "_seated", None)
    if seats is None:
        seats = meeting._seated = table_selectors.seats_of(meeting)
    return seats


def seat_names(meeting):
    return [seat.name for seat in seated(meeting)]


def replay_hands(meeting, payloads, carried=None):
    """The replay, or (None, problems) when the stored hands no longer fit (never a 500).
    ``carried``: ``services.carried_rounds_for(meeting)``, when the caller asked it already."""
    try:
        return replay.calculate_meeting(meeting, payloads=payloads, players=seated(meeting), carried=carried), []
    except exceptions.InvalidInput as error:
        return None, page_errors(meeting, error.errors)


def carried_rounds(meeting):
    """``services.carried_rounds_for(meeting)``, asked once by a write for its form's replay
    and its own (a carrying league reads the previous evening's cache for it: two queries each
    time); None when the previous evening no longer adds up: the replay then says so."""
    try:
        return replay.carried_rounds_for(meeting)
    except exceptions.InvalidInput:
        return None


def page_errors(meeting, errors):
    """A service's problems in the words of the page's forms (leagues/field_labels.py)."""
    if not errors:
        return errors
    names = seat_names(meeting) + list(meeting.teams or ())
    return field_labels.page_errors(errors, game=meeting.game, players=names)


def errors_by_field(errors, number):
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
    by_field, others = errors_by_field(errors or [], hand_number)
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
    address), whose undo the table offers to undo (leagues/table/undo.py, ``offers``).
    """
    if hands is None:
        hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
    live = [h for h in hands if h.deleted_at is None]
    if replayed is not None and _same_hands(live, replayed[0]):
        result, broken = replayed[1], []
    else:
        result, broken = replay_hands(meeting, [h.payload for h in live])
    context = _evening_page(request, meeting, membership, hands=hands, result=result, undone=undone)
    context.update(broken=broken, conflict=conflict, closed_refusal=closed_refusal)
    if meeting.imported_totals:
        # An evening copied from paper as totals (leagues/exchange/paper_import.py): no hands,
        # no form; the page shows the totals as written.
        context["imported_totals"] = table_selectors.imported_totals(meeting=meeting)
        context["can_write"] = False
        return context
    if result is not None:
        context.update(
            form_context(
                request,
                meeting,
                players=context["players"],
                result=result,
                module=form_module(meeting.game),
                initial=initial,
                errors=errors,
                hand_number=context["hand_number"],
            )
        )
        context.update(sheet_part(meeting, context, result=result, live=live, idempotency_key=idempotency_key))
        if not context["evening_over"]:
            context.update(next_context(context, module=form_module(meeting.game)))
    return context


def _evening_page(request, meeting, membership, *, hands, result, undone):
    """What the meeting page shows whatever its hands: the players, the deleted hands, the
    end of the evening, the undo offers, and a closed evening's result to share."""
    live = [h for h in hands if h.deleted_at is None]
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "can_write": can_write(membership),
        "players": seat_names(meeting),
        # Each with the number it had and its game (one query, only when there are any).
        "deleted": hand_history.deleted_hands(
            hands=[h for h in hands if h.deleted_at is not None], module=form_module(meeting.game)
        ),
        "hand_number": len(live) + 1,
        "rows": [],
        "after_end": evening.end_time_passed(meeting),
        **evening_context(meeting, membership, result),
    }
    # The last hand's undo for whoever entered it, and the undo of the undo he just made.
    may_undo = can_write(membership) and not context["evening_over"] and not meeting.imported_totals
    context.update(undo.offers(meeting=meeting, hands=hands, user=request.user, may_write=may_undo, undone=undone))
    # A closed evening's result, to share (leagues/table/sharing.py): one query, on its page only.
    context["share"] = sharing.evening(request, meeting, seats=seated(meeting)) if context["closed"] else None
    # The evening's money (leagues/cashbox/views/settling.py): nothing where none is played for.
    context.update(settle_context(request, meeting, membership))
    return context


def sheet_part(meeting, context, *, result, live, idempotency_key):
    """The sheet and the panel's figures from the replay: the rows, the totals, who deals and
    who sits out, and where the next hand is posted (with its idempotency key)."""
    nxt = result["next"]
    active = nxt.get("active", context["players"])
    rows = sheet.sheet_rows(result=result, live_hands=live)
    return {
        "parties": result["parties"],
        "totals": result["totals"],
        "rows": rows,
        "dealer": nxt.get("dealer"),
        # The dealer is named by the game's own panel (with whether he sits out).
        "sitting_out": [p for p in context["players"] if p not in active and p != nxt.get("dealer")],
        "host_round_games_left": nxt.get("host_round_games_left"),
        "hand_url": reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk}),
        "idempotency_key": idempotency_key or uuid.uuid4(),
        "sheet_mark": sheet.sheet_mark(live),
        # The legend of the special rounds only on a sheet that has such rows (Doppelkopf's).
        "special_rounds": any(row["round_label"] for row in rows),
    }


def next_words(context):
    """The words with figures in them of the panel above the form (the partial ``next_card``
    of templates/meetings/meeting.html, which has the constant ones): the next hand's
    number, who deals and who sits out, the running round and its games left, the games left
    in the host round once the end time passed, the solo due or owed; a race game's score
    (leagues/table/next_line.py)."""
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
        "can_close": can_write(membership) and evening.can_close(meeting, result),
        "can_reopen": meeting.closed_at is not None and membership.allows(Role.ADMIN),
        "last_round": result is not None
        and not over
        and evening.has_rounds(result)
        and evening.end_time_passed(meeting),
    }


@login_required
@require_GET
def meeting(request, slug, pk):
    meeting, membership = member_meeting(request, slug, pk)
    context = table_context(request, meeting, membership, undone=request.GET.get("undone"))
    return render(request, "meetings/meeting.html", context)


def render_table(request, meeting, membership, *, status=200, **kwargs):
    context = table_context(request, meeting, membership, **kwargs)
    if request.htmx:
        return render(request, "meetings/meeting.html#table", context, status=status)
    return render(request, "meetings/meeting.html", context, status=status)


urlpatterns = [
    path("l/<slug:slug>/m/<int:pk>/", meeting, name="meeting"),
]
