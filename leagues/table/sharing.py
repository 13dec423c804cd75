"""What the "Share" button of a closed evening and of a season's bill hands to the phone's
share sheet (templates/share/button.html, static/js/at-table.js): a title, a text in the
reader's language, a link, and the standings as a small table from which the script draws a
picture (PNG) where the phone can share files. Without a share sheet the script copies the
text and the link instead.

The link of an evening is its public page when the league has a public link (anyone can open
it), else its page for members. The bill's is the bill page (members only) or the link of a
split worked out but not saved.
"""

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import games
from leagues.models import MeetingResult
from leagues.money import money_text
from leagues.table import selectors as table_selectors
from leagues.table.night_page import bill_score_text


def _signed(total: int) -> str:
    # The sheet's way: +12, 0, −4 (a real minus sign, as a printed table has it).
    return f"+{total}" if total > 0 else (f"−{-total}" if total < 0 else "0")


def _season_score(score, *, race: bool) -> str:
    """A score a bill is split by, the sheet's way (an exact score of a season counted by
    placings or points per game rounded as the bill page shows it: "+3½", "−0.67")."""
    if race:
        return bill_score_text(score)
    text = bill_score_text(abs(score))
    return f"+{text}" if score > 0 else (f"−{text}" if score < 0 else text)


def _ranked(rows, key):
    """(place, row) in the order of ``key``; equal keys share a place."""
    ranked, place, previous = [], 0, object()
    for i, row in enumerate(sorted(rows, key=key), start=1):
        if key(row)[:-1] != previous:
            place, previous = i, key(row)[:-1]
        ranked.append((place, row))
    return ranked


def evening(request, meeting, *, seats) -> dict | None:
    """The share of a closed evening, or None while it is open (it has no result yet).
    ``seats``: its seated players in seat order (``selectors.seats_of``). One query; a table
    of a club night two (the night's winner)."""
    if meeting.closed_at is None:
        return None
    rows = list(MeetingResult.objects.filter(meeting=meeting))
    if not rows:
        return None
    race = games.is_race_game(meeting.game)
    names = {seat.pk: seat.name for seat in seats}
    table, lines = _standings(rows, seats, names, race=race)
    league = meeting.league
    date = formats.date_format(meeting.date, "DATE_FORMAT")
    title = f"{league.name} · {date}"
    winner = next((names.get(r.player_id) for r in rows if r.won_evening), None)
    if meeting.club_night_id is not None:  # a table of a club night: the night's winner, at any table
        title = f"{title} · {_('Table %(number)s') % {'number': meeting.table_number}}"
        found = table_selectors.meeting_winner(meeting=meeting)
        winner = found.name if found is not None else None
    head = [title]
    if winner:
        head.append(_("Tonight's winner: %(name)s") % {"name": winner})
    hands = max(r.hands for r in rows)
    tail = [ngettext("%(hands)s hand", "%(hands)s hands", hands) % {"hands": hands}] if hands else []
    if league.public_token:
        path = reverse("public_meeting", args=[league.public_token, meeting.pk])
    else:
        path = meeting.get_absolute_url()
    return _share(request, "share-evening", title, head + lines + tail, path, table, f"{league.slug}-{meeting.date}")


def standings_rows(meeting, *, seats) -> list:
    """The evening's standings as it stands, closed or not: [place, name, figure] rows in the
    order of the share's table (``_standings``), from the cached results. One query."""
    rows = list(MeetingResult.objects.filter(meeting=meeting))
    names = {seat.pk: seat.name for seat in seats}
    return _standings(rows, seats, names, race=games.is_race_game(meeting.game))[0]


def _standings(rows, seats, names, *, race):
    """The evening's standings as table rows and as lines of text: place, name and figure
    (race games: games won, then points; else the total); ties in seat order."""
    order = {seat.pk: i for i, seat in enumerate(seats)}

    def key(row):
        best = (row.games_won, row.points) if race else (row.total,)
        return tuple(-x for x in best) + (order.get(row.player_id, len(order)),)

    table, lines = [], []
    for place, row in _ranked(rows, key):
        name = names.get(row.player_id, "?")
        if race:
            figure = ngettext("%(games)s game won", "%(games)s games won", row.games_won) % {"games": row.games_won}
            figure += " · " + _("%(points)s points") % {"points": row.points}
        else:
            figure = _signed(row.total)
        table.append([f"{place}.", name, figure])
        lines.append(f"{place}. {name} {figure}")
    return table, lines


def bill(request, *, league, season, shown, race, url, ident="share-bill") -> dict:
    """The share of a season's bill as the page shows it (``shown``: the stored bill's or the
    split's rows, total and transfers, views/bill.py), with ``url``, its address; ``ident``:
    the id of its table in the page (one a share)."""
    title = _("%(season)s: the bill") % {"season": season}
    head = [f"{league.name} · {title}", _("%(total)s to split") % {"total": money_text(shown["total"])}]
    table, lines = [], []
    for row in shown["rows"]:
        score = _season_score(row["score"], race=race)
        share = money_text(row["share"])
        table.append([f"{row['rank']}.", row["name"], score, share])
        lines.append(f"{row['rank']}. {row['name']} ({score}): {share}")
    transfers = [f"{t['from']} → {t['to']}: {money_text(t['amount'])}" for t in shown.get("transfers") or ()]
    if transfers:
        transfers.insert(0, _("Who pays whom:"))
    return _share(request, ident, f"{league.name} · {title}", head + lines + transfers, url, table, league.slug)


def _share(request, ident, title, lines, url, table, file_stem) -> dict:
    url = request.build_absolute_uri(url)
    return {
        "id": ident,
        "title": title,
        "text": "\n".join(lines),
        "url": url,
        # What static/js/at-table.js draws the picture from: a title and rows of cells.
        "table": {"title": title, "rows": table, "file": f"kartenliga-{file_stem}.png"},
    }
