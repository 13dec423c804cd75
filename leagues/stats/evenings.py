"""A league's evenings as the statistics and the ratings read them: in playing order, each with
a mark of everything played up to it, and their hands with their results.

The statistics and the ratings are worked out evening after evening, and what they were worked
out from is kept (``leagues.stats.derived_cache``) with the mark of the evening it reaches: it is read
back only while that evening's mark is still the same.

An evening's own share of the mark is whether it is closed and the digest of its live hands
that the writer keeps with its cached results (``MeetingCarry.hands_digest``): a hand entered,
corrected, deleted or restored changes the digest, and a closed evening changes only once an
admin reopened it. Its cached results also change when an evening before it changes (special
rounds carried in), so a mark is a chain over every evening up to it: a change anywhere
changes every mark from there on.

A table of a club night counts as closed once every table of the night is (``closed``): the
night's winner is marked on one of its tables when the last one closes, so a table closed
earlier is still tonight's until then, and the night is never split by tonight's start.

A season's what-if outcomes (``leagues.seasons.what_if``) chain the marks over that season's
evenings alone (``season_evenings``): what comes into its first evening from before is part of
their tag.

Tonight is the open evenings of the newest date that has one, with every evening played after
the first of them (a hand tonight may rewrite the rounds carried into those): the kept figures
reach at most the evening before tonight, and a page works tonight out afresh.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

from django.db.models import Exists, F, OuterRef, Q

from leagues.models import Hand, HandResult, League, Meeting

# The statistics count a season's evenings together and the seasons in their order; the
# ratings rate every evening in the order it was played.
BY_SEASON = ("season__number", "date", "id")
BY_DATE = ("date", "id")
# The evenings whose hands are read at once when many are counted or rated (the first page
# after an import): a big league's hands are never all held at once.
EVENINGS_AT_ONCE = 200


@dataclass(frozen=True)
class Played:
    id: int
    date: datetime.date
    season_id: int


@dataclass
class Evenings:
    rows: list[tuple]  # (meeting id, date, season id, closed, digest of its live hands) in order
    tonight: int  # the index of tonight's first evening; len(rows) when every evening is closed
    seed: str  # what every mark starts from (the kind of figure, how it is worked out)

    def reached(self, kept) -> int:
        """The index of the last evening a kept (meeting id, mark, ...) holds, while its mark
        still matches; -1 when it holds none or no longer matches."""
        if kept is None or kept[0] is None:
            return -1
        i = self._index.get(kept[0], -1)
        return i if i >= 0 and self._mark(i) == kept[1] else -1

    def mark(self, i: int) -> tuple[int, str] | tuple[None, str]:
        """What a figure reaching evening ``i`` is kept with (-1: no evening)."""
        return (self.rows[i][0], self._mark(i)) if i >= 0 else (None, "")

    def after(self, i: int) -> list[Played]:
        """The evenings after the one at index ``i``, in order."""
        return [Played(id=row[0], date=row[1], season_id=row[2]) for row in self.rows[i + 1 :]]

    def of_season(self, season_id: int) -> list[int]:
        return [row[0] for row in self.rows if row[2] == season_id]

    @cached_property
    def season_ends(self) -> dict[int, int]:
        """{season id: the index of its last evening}."""
        return {row[2]: i for i, row in enumerate(self.rows)}

    @cached_property
    def _index(self) -> dict[int, int]:
        return {row[0]: i for i, row in enumerate(self.rows)}

    @cached_property
    def _marks(self) -> list[str]:
        """Every evening's mark, in order: the chain hashed once, a copy read at each evening."""
        chain = hashlib.sha256(self.seed.encode())
        marks = []
        for own in self._own:
            chain.update(own.encode())
            marks.append(chain.copy().hexdigest()[:32])
        return marks

    @cached_property
    def _own(self) -> list[str]:
        """Each evening's own share of the marks."""
        return [
            f"{pk},{season_id},{date.toordinal()},{closed},{digest};"
            for pk, date, season_id, closed, digest in self.rows
        ]

    def _mark(self, i: int) -> str:
        """The mark of evening ``i``: of every evening up to it, in order (the digest of the
        seed and each evening's own share, one after the other)."""
        return self._marks[i]


def closed_evening():
    """Whether an evening is closed, a table of a club night once every table of it is."""
    open_table = Meeting.objects.filter(club_night=OuterRef("club_night"), closed_at__isnull=True)
    return Q(closed_at__isnull=False) & (Q(club_night__isnull=True) | ~Exists(open_table))


def evenings_of(league: League, *, order: tuple[str, ...], tag: str) -> Evenings:
    """The league's evenings in ``order`` with their marks (``tag``: the kind of figure and
    how it is worked out, so that figures worked out another way never match). One query."""
    rows = list(
        Meeting.objects.filter(league=league)
        .annotate(closed=closed_evening())
        .order_by(*order)
        .values_list("id", "date", "season_id", "closed", "carry__hands_digest")
    )
    return Evenings(rows=rows, tonight=_tonight(rows), seed=f"{tag}|")


def with_own_marks(meetings):
    """``meetings`` (a queryset) with what each evening adds to the marks besides its id, date
    and season: ``closed`` and ``hands_digest`` (``season_evenings`` reads them)."""
    return meetings.annotate(closed=closed_evening(), hands_digest=F("carry__hands_digest"))


def season_evenings(meetings: list[Meeting], *, tag: str) -> Evenings:
    """``meetings`` (one season's, read ``with_own_marks``, in playing order) as Evenings whose
    marks chain from the first of them: ``tag`` says, besides the kind of figure, what comes
    into that first evening from before the season. No query."""
    rows = [(m.id, m.date, m.season_id, m.closed, m.hands_digest) for m in meetings]
    return Evenings(rows=rows, tonight=_tonight(rows), seed=f"{tag}|")


def _tonight(rows) -> int:
    """The index of the first evening played on or after the first open evening of the newest
    date that has one (len(rows) when none is open)."""
    open_ones = [(row[1], row[0]) for row in rows if not row[3]]
    if not open_ones:
        return len(rows)
    newest = max(date for date, _id in open_ones)
    first = min(key for key in open_ones if key[0] == newest)
    return next(i for i, row in enumerate(rows) if (row[1], row[0]) >= first)


def hands_in_play_order(*, meetings: list[int]) -> list[tuple[int, int, dict]]:
    """(hand id, meeting id, payload) of the live hands of ``meetings`` in playing order: the
    meetings by date (then id), each meeting's hands by position (the sheet's order)."""
    return list(
        Hand.objects.filter(meeting__in=meetings, deleted_at=None)
        .order_by("meeting__date", "meeting_id", "position")
        .values_list("id", "meeting_id", "payload")
    )


def active_results(*, meetings: list[int], seat_order: bool = True) -> dict[int, list[tuple]]:
    """{hand id: [(player id, active, delta, won, round, games_won), ...]} of the players
    active in each hand of ``meetings`` (who sat out is in no statistic and no match), with
    ``seat_order`` in seat order: by id, as the writer inserts a hand's rows in the replay's
    party order (the statistics need no order)."""
    by_hand: dict[int, list[tuple]] = defaultdict(list)
    rows = HandResult.objects.filter(meeting__in=meetings, active=True).order_by(*(["id"] if seat_order else []))
    for row in rows.values_list("hand_id", "player_id", "active", "delta", "won", "round", "games_won"):
        by_hand[row[0]].append(row[1:])
    return by_hand
