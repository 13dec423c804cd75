"""The evening as the big screen shows it (a TV, a projector, a phone watching): its sheet,
its standings and who deals next, refreshed by polling, and the mark a poll is answered
with.

A poll asks whether anything changed since the screen last drew the evening: ``live_mark``
answers from the meeting's row and its ``MeetingCarry`` in one query, so an unchanged poll
costs no replay and no rendering (the view answers 304). The mark holds what the screen
shows: the digest of the live hands the writer keeps with every write (a hand entered,
corrected, deleted or restored), the rounds carried in (a correction of an earlier evening
changes them without touching tonight's hands), the end of the evening (closed, end time,
and whether it has passed, which changes with the clock alone), the reader's language and
whether he reads by the public link (the pages differ in their links).

``board`` is one table's part of the screen. A club night's screen is the list of its
tables' boards with the night's standings (``night_board``); its mark (``night_mark``) is read
the same way, in one query over all its tables, so that a hand at any table changes it.
"""

import hashlib

from django.db.models import Q
from django.urls import reverse

from leagues import exceptions
from leagues.models import Meeting
from leagues.table import evening, night_page, replay, sharing
from leagues.table import selectors as table_selectors

# What the board shows that can change while it is up: the hands, the rounds carried in, the
# end time and whether the evening closed. Its host, season and seats are fixed once it
# started; a player renamed shows at the next hand.
MARK_FIELDS = ("carry__hands_digest", "carry__carried_in", "closed_at", "date", "end_time")


def live_mark(*, pk, language, user=None, slug=None, token=None) -> str | None:
    """The mark of meeting ``pk`` as its live screen shows it, in one query; None when the
    reader may not see it (not a member of league ``slug``, or ``token`` is not its league's
    public link): the view then answers as it answers anyone without access.

    A superuser who is no member gets None too: his page is drawn every time."""
    meetings, kind = _readable(Meeting.objects.filter(pk=pk), user=user, slug=slug, token=token)
    row = meetings.values_list(*MARK_FIELDS).first()
    if row is None:
        return None
    return _digest((*_shown(row), language, kind))


def night_mark(*, pk, language, user=None, slug=None, token=None) -> str | None:
    """The mark of club night ``pk`` as its pages show it: every table's part of
    ``live_mark`` (with the table's id and number), read in one query over all its tables;
    None when the reader may not see it, as ``live_mark``."""
    tables, kind = _readable(Meeting.objects.filter(club_night_id=pk), user=user, slug=slug, token=token)
    rows = tables.order_by("table_number").values_list("pk", "table_number", *MARK_FIELDS)
    shown = tuple((table, number, *_shown(row)) for table, number, *row in rows)
    if not shown:
        return None
    return _digest((shown, language, kind))


def _readable(meetings, *, user, slug, token):
    """``meetings`` narrowed to those the reader may see, and the kind of reader: by the
    public link ``token`` of their league, else as a member of league ``slug``."""
    if token is not None:
        return meetings.filter(league__public_token=token), "public"
    return meetings.filter(Q(league__slug=slug) & Q(league__memberships__user=user)), "member"


def _shown(row):
    """What a table's screen shows of a row of ``MARK_FIELDS``: the hands, the rounds carried
    in, the end and whether the end time passed."""
    digest, carried_in, closed_at, date, end_time = row
    passed = evening.end_time_passed(Meeting(date=date, end_time=end_time))
    return digest, carried_in, closed_at, end_time, passed


def _digest(parts) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def board(meeting, *, next_words) -> dict:
    """One table's part of the screen: the sheet (as the public sheet has it, from the cached
    results), the standings of the evening (place, name, figure), what comes next (the
    replay's words for the panel, ``next_words``: views.meeting's), and the end of the
    evening. A fixed number of queries whatever the number of hands."""
    columns, rows, totals = table_selectors.meeting_sheet(meeting=meeting)
    seats = table_selectors.seats_of(meeting)
    standings = sharing.standings_rows(meeting, seats=seats)
    context = {
        "meeting": meeting,
        "players": columns,
        "rows": rows,
        "totals": totals,
        "has_rounds": any(row.round_label for row in rows),
        "standings": standings,
        "closed": meeting.closed_at is not None,
        "winner": next((row[1] for row in standings if row[0] == "1."), None) if meeting.closed_at else None,
        "w": None,
    }
    if meeting.closed_at is None and not meeting.imported_totals:
        context["w"] = _next(meeting, seats=seats, rows=rows, next_words=next_words)
    return context


def night_board(night, tables, *, next_words) -> dict:
    """A club night's screen: each table's ``board`` in table order and the night's
    standings (``night_page.standings_context``). A fixed number of queries a table, and the
    standings' two."""
    return {
        "night": night,
        "boards": [board(table, next_words=next_words) for table in tables],
        **night_page.standings_context(night, tables),
    }


def _next(meeting, *, seats, rows, next_words):
    """The panel's words of what comes next, from one replay of the live hands; None when the
    hands no longer add up (the sheet still shows what was stored) or the evening is over."""
    payloads = table_selectors.live_payloads(meeting=meeting)
    try:
        result = replay.calculate_meeting(meeting, payloads=payloads, players=seats)
    except exceptions.InvalidInput:
        return None
    if evening.evening_over(meeting, result):
        return None
    nxt = result["next"]
    players = [seat.name for seat in seats]
    active = nxt.get("active", players)
    context = {
        "next": nxt,
        "result": result,
        "players": players,
        "league": meeting.league,
        "hand_number": len(payloads) + 1,
        "sitting_out": [p for p in players if p not in active and p != nxt.get("dealer")],
        "host_round_games_left": nxt.get("host_round_games_left"),
        "after_end": evening.end_time_passed(meeting),
        "last_round": evening.has_rounds(result) and evening.end_time_passed(meeting),
    }
    return {**next_words(context), "round_kind": nxt.get("round")}


def poll_url(meeting, *, token=None) -> str:
    """The address of the part of the screen it polls (by the public link when ``token``)."""
    if token is not None:
        return reverse("public_live_hx", kwargs={"token": token, "pk": meeting.pk})
    return reverse("meeting_live_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})


def night_poll_url(night, *, token=None) -> str:
    """The address of the part of a club night's screen it polls (by the public link when
    ``token``)."""
    if token is not None:
        return reverse("public_night_live_hx", kwargs={"token": token, "pk": night.pk})
    return reverse("club_night_live_hx", kwargs={"slug": night.league.slug, "pk": night.pk})
