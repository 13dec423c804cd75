"""Starting a club night: who is here, the tables Kartenliga proposes for them (sizes the game
allows, last evening's table-mates split where the numbers allow), moved by hand or drawn
again, then started at once.

One page in two steps: without ``players`` it asks who is here; with them (from that step, or
from the start page when more players are tapped than one table takes) it shows the proposed
tables. Its buttons post the same form: "draw again" and "add a table" show the tables anew,
"start" opens the night.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues import exceptions, field_labels
from leagues.models import Role
from leagues.permissions import league_for
from leagues.seasons import selectors as seasons_selectors
from leagues.table import night_draw, night_selectors, nights
from leagues.table.night_forms import EVENING_FIELDS, MAX_TABLES, NightStartForm, present_players
from scoring.errors import ScoringError
from scoring.numbers import whole_number
from scoring.registry import get_game


@login_required
@require_http_methods(["GET", "POST"])
def club_night_start(request, slug):
    league, _membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
    active = list(league.players.filter(active=True).order_by("name"))
    action = request.POST.get("action", "start") if request.method == "POST" else "propose"
    if action == "start":
        form = NightStartForm(request.POST, league=league, active_players=active)
        if form.is_valid():
            night = _open(request, league, form)
            if night is not None:
                messages.success(request, _("The club night has started. Good game at every table!"))
                return redirect(night.get_absolute_url())
        return _tables_page(request, league, form, status=400)
    source = request.POST if request.method == "POST" else request.GET
    if "players" not in source:
        return _who_is_here(request, league, active, named=[])
    try:
        present = present_players(source.getlist("players"), active)
        initial = _arranged(league, source, present, action=action)
    except ValidationError as error:
        return _who_is_here(request, league, active, named=source.getlist("players"), problem=error.messages[0])
    except ScoringError as error:
        problem = error.problems[0].render(_)
        return _who_is_here(request, league, active, named=source.getlist("players"), problem=problem)
    form = NightStartForm(league=league, active_players=active, initial=initial)
    return _tables_page(request, league, form, status=200)


def _arranged(league, source, present, *, action):
    """The form's initial values: the tables as posted with one more table ("add a table"), or
    freshly drawn (the first proposal and "draw again"), with the host and the evening's fields
    as given, else their defaults."""
    given = {name: source.get(name) for name in EVENING_FIELDS if name in source}
    if action == "add_table":
        count = min(_whole(source.get("table_count"), 2) + 1, MAX_TABLES)
        tables = {f"table_{p.pk}": source.get(f"table_{p.pk}") for p in present}
        return {
            **_evening(league, given, last=None),
            **tables,
            "players": [p.pk for p in present],
            "table_count": count,
        }
    last = night_selectors.last_evening(league=league)
    drawn = night_draw.proposed_tables(
        game=league.game, players=present, last_tables=last.tables if last else [], seed=night_draw.new_seed()
    )
    if len(drawn) < 2:
        raise ValidationError(_("They are players for one table: start the evening at one table."))
    host = _host(league, present, given.get("host"))
    drawn = [night_draw.host_first(table, host) for table in drawn]
    initial = {**_evening(league, given, last=last), "host": host.pk}
    initial.update({f"table_{p.pk}": number for number, table in enumerate(drawn, start=1) for p in table})
    return {**initial, "players": [p.pk for table in drawn for p in table], "table_count": len(drawn)}


def _whole(raw, default):
    """``raw`` as a whole number, or ``default`` when it is none."""
    number = whole_number(str(raw or ""))
    return default if number is None else number


def _host(league, present, raw):
    """The host: the one given when he is here, else the host due (``suggested_host``) when he
    is here, else the first player named."""
    given = {player.pk: player for player in present}.get(_whole(raw, None))
    if given is not None:
        return given
    due = seasons_selectors.suggested_host(league=league)
    return due if due in present else present[0]


def _evening(league, given, *, last):
    """The evening's fields as the posting form gave them (the start page's, or this page's
    before "draw again"), else today's date and last evening's winner as the pennant's holder."""
    if given:
        return {"date": timezone.localdate(), **given}
    winner = night_selectors.last_evening_winner(league=league, last=last) if last is not None else None
    return {"date": timezone.localdate(), "pennant_holder": winner.pk if winner else None}


def _open(request, league, form):
    """The night opened from the valid ``form``, or None when the service refused it (its
    problems are then on the form, under the field each names)."""
    data = form.cleaned_data
    try:
        return nights.open_club_night(
            league=league,
            date=data["date"],
            host=data["host"],
            tables=data["tables"],
            end_time=data.get("end_time"),
            pennant_holder=data.get("pennant_holder"),
            pennant_forgotten=data.get("pennant_forgotten", False),
            user=request.user,
        )
    except exceptions.InvalidInput as error:
        players = [player.name for table in data["tables"] for player in table]
        for problem in field_labels.page_errors(error.errors, game=league.game, players=players):
            field = problem.get("field")
            form.add_error(field if field in form.fields else "tables", problem["message"])
        return None


def _who_is_here(request, league, active, *, named, problem=None):
    """The first step: every active player to tick, those named ticked; 400 with ``problem``."""
    ticked = {str(raw) for raw in named}
    context = {
        "league": league,
        "step": "who",
        "players": [{"player": p, "ticked": str(p.pk) in ticked} for p in active],
        "problem": problem,
    }
    return render(request, "meetings/night_start.html", context, status=400 if problem else 200)


def _tables_page(request, league, form, *, status):
    """The tables proposed (or as posted), the host and the evening's fields."""
    spec = get_game(league.game)
    tables = form.arrangement()
    # The host is one of the players here: the list offers those alone (the form takes any
    # active player, to say so when another is posted).
    here = sorted((p for table in tables for p in table["players"]), key=lambda p: p.name)
    form.fields["host"].widget.choices = [("", "—"), *((p.pk, p.name) for p in here)]
    context = {
        "league": league,
        "step": "tables",
        "form": form,
        "errors": form.section_errors() if form.is_bound else {},
        "tables": tables,
        "numbers": [table["number"] for table in tables],
        "can_add_table": len(tables) < MAX_TABLES,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
    }
    return render(request, "meetings/night_start.html", context, status=status)


urlpatterns = [
    path("l/<slug:slug>/nights/new/", club_night_start, name="club_night_start"),
]
