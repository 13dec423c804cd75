"""Reads for the printable season report: one season's final standings, its
chart, its evenings, a few highlights and its settled bill.

The standings, the evenings and the chart are read as the standings page reads them, for the
season alone (``stats.selectors.season_standings``: the report and the standings page never
disagree); the highlights read the stored per-meeting and per-hand results (MeetingResult,
HandResult) of the season; the bill is the stored one (SeasonBill), never split again here. A
fixed number of queries whatever the size of the season, and nothing of the league's other
seasons.
"""

from dataclasses import dataclass, field

from django.db.models import Max
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from leagues.models import HandResult, MeetingResult, Season
from leagues.seasons import selectors as seasons_selectors
from leagues.stats import selectors as stats_selectors

# The standings page's colours (static/js/standings-chart.js), so a player keeps his colour.
COLOURS = ("#15803d", "#b45309", "#1d4ed8", "#b91c1c", "#7c3aed", "#0e7490", "#a16207", "#be185d")

# The drawing's own units (the SVG's viewBox): it scales to the page's width.
WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 10, 24


@dataclass
class Highlight:
    label: str
    names: list  # the players who share it, in standings order
    figure: str  # what they did, as the page shows it ("+14", "3")
    dates: list = field(default_factory=list)  # the evenings it happened on
    hand: int | None = None  # the hand's number on that evening's sheet


@dataclass
class ChartLine:
    name: str
    colour: str
    points: str  # "x,y x,y ..." for <polyline>
    # A <circle> at each point, written here: an evening's dot for each player, looped over
    # in the template, cost more than the rest of the report.
    dots: str = ""


@dataclass
class ChartDrawing:
    width: int
    height: int
    lines: list  # ChartLine
    zero_y: float | None  # where 0 sits (None when 0 is not on the scale)
    y_ticks: list  # [(y, label)]
    x_ticks: list  # [(x, label)]
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


@dataclass
class SeasonReport:
    standings: stats_selectors.SeasonStandings
    drawing: ChartDrawing | None
    highlights: list
    bill: object  # the SeasonBill in force, or None
    chooser: object = None  # who chooses the restaurant (a Player), once the season is complete


def _signed(number):
    return f"+{number}" if number > 0 else str(number).replace("-", "−")


def chart_drawing(chart):
    """The season chart (``selectors.standings``' labels and datasets: each player's running
    total, one point per meeting) as coordinates for an inline SVG, which prints as it shows
    and needs no script. None for a season without a hand."""
    labels, datasets = chart["labels"], chart["datasets"]
    if not labels or not datasets:
        return None
    values = [v for d in datasets for v in d["data"]]
    low, high = min(0, *values), max(0, *values)
    if low == high:
        high = low + 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / (len(labels) - 1) if len(labels) > 1 else 0

    def x(i):
        return round(LEFT + (i * step if len(labels) > 1 else inner_w / 2), 1)

    def y(value):
        return round(TOP + (high - value) * inner_h / (high - low), 1)

    lines = []
    for i, d in enumerate(datasets):
        at = [(x(j), y(v)) for j, v in enumerate(d["data"])]
        colour = COLOURS[i % len(COLOURS)]
        # Numbers and a colour of ours only, in Python's format, never the page's ("190,0" in
        # German breaks them).
        dots = mark_safe("".join(f'<circle cx="{a}" cy="{b}" r="3" fill="{colour}"/>' for a, b in at))
        points = " ".join(f"{a},{b}" for a, b in at)
        lines.append(ChartLine(name=d["label"], colour=colour, points=points, dots=dots))
    y_ticks = [(y(v), _signed(v)) for v in sorted({low, 0, high})]
    every = max(1, -(-len(labels) // 8))  # at most about eight dates under the axis
    x_ticks = [(x(i), label) for i, label in enumerate(labels) if i % every == 0 or i == len(labels) - 1]
    return ChartDrawing(width=WIDTH, height=HEIGHT, lines=lines, zero_y=y(0), y_ticks=y_ticks, x_ticks=x_ticks)


def _best(rows, figure):
    """The rows sharing the highest ``figure`` (above 0), or []."""
    best = max((figure(r) for r in rows), default=0)
    return [r for r in rows if figure(r) == best] if best > 0 else []


def highlights(*, season, standings):
    """What stood out in the season, from its stored results: the best evening (most points,
    or most games won in a race game), the most evenings won, the most solos won (games with
    soloists), the best single hand (not in race games, whose deltas hold a finished game's
    reset), and the longest evening. Ties are shared. Three queries."""
    table = standings.table
    dates = {meeting_id: m.date for m in standings.meetings for meeting_id in m.meeting_ids}
    figure = "games_won" if standings.race else "total"
    evenings = list(MeetingResult.objects.filter(season=season).values("meeting_id", "player_id", figure, "hands"))
    found = [
        _best_evening(evenings, figure, race=standings.race, table=table, dates=dates),
        *_most_won(standings),
        None if standings.race else _best_hand(season, table=table, dates=dates),
        _longest_evening(evenings, dates=dates),
    ]
    return [highlight for highlight in found if highlight is not None]


def _in_order(table, player_ids):
    """The names of ``player_ids`` in the standings' order."""
    return [row.player.name for row in table if row.player.id in player_ids]


def _on(dates, meeting_ids):
    """The dates of the evenings ``meeting_ids``, in order, each once."""
    return sorted({dates[m] for m in meeting_ids if m in dates})


def _best_evening(evenings, figure, *, race, table, dates):
    best = max((r[figure] for r in evenings), default=0)
    if best <= 0:
        return None
    tops = [r for r in evenings if r[figure] == best]
    return Highlight(
        label=_("Best evening"),
        names=_in_order(table, {r["player_id"] for r in tops}),
        figure=str(best) if race else _signed(best),
        dates=_on(dates, (r["meeting_id"] for r in tops)),
    )


def _most_won(standings):
    """The most evenings won and (games with soloists) the most solos won."""
    found = []
    rows = _best(standings.table, lambda r: r.evenings_won)
    if rows:
        found.append(Highlight(_("Most evenings won"), [r.player.name for r in rows], str(rows[0].evenings_won)))
    if standings.solos:
        rows = _best(standings.table, lambda r: r.solos_won)
        if rows:
            found.append(Highlight(_("Most solos won"), [r.player.name for r in rows], str(rows[0].solos_won)))
    return found


def _best_hand(season, *, table, dates):
    """The season's highest delta and who scored it at its first hand (two queries)."""
    top = HandResult.objects.filter(season=season).aggregate(best=Max("delta"))["best"] or 0
    if top <= 0:
        return None
    hands = list(
        HandResult.objects.filter(season=season, delta=top)
        .values("player_id", "meeting_id", "number")
        .order_by("meeting__date", "meeting_id", "number")
    )
    first = hands[0]
    players = {
        h["player_id"] for h in hands if (h["meeting_id"], h["number"]) == (first["meeting_id"], first["number"])
    }
    return Highlight(
        _("Best hand"), _in_order(table, players), _signed(top), _on(dates, [first["meeting_id"]]), hand=first["number"]
    )


def _longest_evening(evenings, *, dates):
    longest = max((r["hands"] for r in evenings), default=0)
    if longest <= 0:
        return None
    shown = _on(dates, (r["meeting_id"] for r in evenings if r["hands"] == longest))
    return Highlight(_("Longest evening"), [], str(longest), shown)


def season_report(*, league, number):
    """Everything the report shows of season ``number``; Season.DoesNotExist when the league
    has no such season."""
    data = stats_selectors.season_standings(league=league, number=number)
    season: Season = data.season
    bill = season.bills.current().select_related("settled_by", "paid_by", "chooser").first()
    chooser = None
    if season.closed_on is not None and data.table:
        # league.md: the worst season total; tied, the first of them in the standings' order
        # (as the stored bill has it).
        chooser = seasons_selectors.restaurant_chooser(table=data.table, race=data.race)
    return SeasonReport(
        chooser=bill.chooser if bill is not None and bill.chooser is not None else chooser,
        standings=data,
        drawing=chart_drawing(data.chart),
        highlights=highlights(season=season, standings=data) if data.table else [],
        bill=bill,
    )
