"""Starting an evening: who sits at the table (as last time, in one tap), in which seats, its
date and end time, and the start totals of a game that carries them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues import exceptions, field_labels, games
from leagues.models import Role
from leagues.permissions import league_for
from leagues.seasons import selectors as seasons_selectors
from leagues.table import meetings, night_selectors
from leagues.table import selectors as table_selectors
from leagues.table.forms import TEAM_NAMES, StartMeetingForm
from leagues.table.night_forms import EVENING_FIELDS
from scoring.registry import START_TOTALS, TEAMS, get_game


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


def _hosts_table(tables, host):
    """Of the last evening's ``tables`` (player ids in seat order), the one ``host`` sat at,
    else the first."""
    return next((table for table in tables if host is not None and host.pk in table), tables[0] if tables else [])


def _last_evening(league):
    """The league's last evening when it is still open (the start page says so, with a link to
    end it; of a club night, a table still open), and its winner, who brings the pennant: None
    while it is open (no winner yet; of a club night, the night's winner once every table is
    closed)."""
    last = table_selectors.last_meeting(league=league)
    if last is None:
        return None, None
    pennant = table_selectors.meeting_winner(meeting=last) if games.has_pennant(league.game) else None
    return (last if last.closed_at is None else None), pennant


@login_required
@require_http_methods(["GET", "POST"])
def meeting_start(request, slug):
    league, _membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
    host = seasons_selectors.suggested_host(league=league)
    open_evening = None
    if request.method == "POST":
        form = StartMeetingForm(request.POST, league=league)
        valid = form.is_valid()
        if _several_tables(request, league, form):
            return redirect(_night_start_address(request, league, form))
        if valid:
            meeting = _start(request, league, form)
            if meeting is not None:
                messages.success(request, _("The meeting has started. Good game!"))
                return redirect(meeting.get_absolute_url())
        seated, status = form.seated, 400
    else:
        open_evening, pennant = _last_evening(league)
        form = StartMeetingForm(
            league=league,
            initial={"date": timezone.localdate(), "pennant_holder": pennant.pk if pennant else None},
        )
        seated, status = ([host] if host else []), 200
    last = night_selectors.last_evening(league=league)
    tables = last.tables if last is not None else []
    order = [player_id for table in tables for player_id in table]
    # "As last time": the last evening's table, in its seat order from the host due (who sits
    # first and deals first), those who no longer play left out; one tap instead of one a seat.
    # After a club night: the table the host due sat at, else its first table.
    same = _same_table(league=league, order=_hosts_table(tables, host), host=host)
    if request.method == "GET" and request.GET.get("same") and same:
        seated = same
    context = _start_context(league, form, seated=seated, order=order, same=same, host=host)
    context["open_evening"] = open_evening
    return render(request, "meetings/start.html", context, status=status)


def _several_tables(request, league, form):
    """Whether the scorekeeper asked for several tables, or tapped more players than one table
    of the game takes: then the club night's start proposes the tables."""
    if request.POST.get("tables") == "several":
        return True
    return "players" not in form.errors and len(form.seated) > get_game(league.game).max_players


def _night_start_address(request, league, form):
    """The club night's start with the players tapped and the evening's fields as typed."""
    query = [("players", player.pk) for player in form.seated]
    query += [(name, request.POST[name]) for name in EVENING_FIELDS if request.POST.get(name)]
    return f"{reverse('club_night_start', kwargs={'slug': league.slug})}?{urlencode(query)}"


def _start(request, league, form):
    """The evening started from the valid ``form``, or None when the service refused it (its
    problems are then on the form's fields)."""
    data = form.cleaned_data
    try:
        return meetings.start_meeting(
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
        return None


def _start_context(league, form, *, seated, order, same, host):
    """The start page: the seated players, the bench (the others, in last evening's seat order
    first), the one-tap table as last time, and the start totals of a game that carries them."""
    spec = get_game(league.game)
    rank = {pk: i for i, pk in enumerate(order)}
    everyone = sorted(league.players.filter(active=True), key=lambda p: (rank.get(p.pk, len(rank)), p.name))
    bench = [p for p in everyone if p not in seated]
    context = {
        "league": league,
        "form": form,
        "errors": form.section_errors(),
        "suggested_host": host,
        "same_table": same if len(same) > 1 and same != seated else None,
        "seated": [{"player": p, "team": form.team_of.get(p.name, "")} for p in seated],
        "bench": bench,
        "team_game": form.team_game,
        "team_names": TEAM_NAMES,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
    }
    if form.carry_game:
        context["carry"] = _carry(form, seated=seated, bench=bench)
    return context


def _carry(form, *, seated, bench):
    """The start totals typed so far, the seated players first in seat order (the script keeps
    it so as seats change), and the teams' in a team game."""
    seated_pks = [p.pk for p in seated]
    return {
        "players": [
            {"player": p, "value": form.typed(f"start_{p.pk}"), "seated": p.pk in seated_pks} for p in seated + bench
        ],
        "teams": [{"name": t, "value": form.typed(f"start_team_{t}")} for t in TEAM_NAMES] if form.team_game else [],
        "open": form.carry_open(),
    }


urlpatterns = [
    path("l/<slug:slug>/meetings/new/", meeting_start, name="meeting_start"),
]
