"""The form that starts a club night: who is here, at which table each one sits, the host, and
what every evening asks (date, end time, pennant)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.fields import STALE_FORM, WholeNumberField
from leagues.models import League, Player
from leagues.table.forms import EveningForm, SeatingField
from leagues.table.meetings import table_problems
from leagues.table.night_draw import host_first
from scoring.numbers import whole_number

# The most tables a night may have: far more than a club plays at, few enough to list.
MAX_TABLES = 30
# The fields the start page hands on to the night's start, and "draw again" keeps.
EVENING_FIELDS = ("host", "date", "end_time", "pennant_holder", "pennant_forgotten")


def present_players(raw_ids, active_players: list[Player]) -> list[Player]:
    """The players named by ``raw_ids`` (their ids, in order; empty ones skipped) among
    ``active_players``. Raises ValidationError for a name that is no active player of the
    league, one named twice, or nobody named."""
    by_id = {player.pk: player for player in active_players}
    present: list[Player] = []
    for raw in raw_ids:
        if not str(raw).strip():
            continue  # the who-is-here step sends an empty name with nothing ticked
        player = by_id.get(whole_number(str(raw)))
        if player is None:
            raise forms.ValidationError(gettext("Pick players of this league only."))
        if player in present:
            raise forms.ValidationError(gettext("Each player can sit at one table only."))
        present.append(player)
    if not present:
        raise forms.ValidationError(gettext("Tick the players who are here."))
    return present


class NightStartForm(EveningForm):
    """Start a club night: the players here in seat order (``players``), each one's table
    (``table_<player id>``, 1 to ``table_count``), the host, and the date, end time and pennant.

    ``cleaned_data["tables"]`` gives the tables in order, each its players in seat order, the
    host first at his table; a table nobody sits at is left out. A table the game does not allow
    is refused naming its number; ``table_errors`` holds each table's problem for its card.
    ``tables`` is a disabled field, never read from the post, so that its problems show where
    the page shows the tables.
    """

    host = forms.TypedChoiceField(
        label=_("Host"),
        coerce=int,
        help_text=_("He deals first at his table."),
        error_messages={
            "required": _("Choose the host."),
            "invalid_choice": _("Pick the host among the players here."),
        },
    )
    players = SeatingField(required=False)
    table_count = WholeNumberField(
        min_value=2, max_value=MAX_TABLES, widget=forms.HiddenInput, error_messages=STALE_FORM
    )
    tables = forms.Field(required=False, disabled=True)

    MEETING_FIELDS = ("host", "date", "end_time", "pennant_holder", "pennant_forgotten")
    SECTIONS = ("players", "tables")

    def __init__(self, *args, league: League, active_players: list[Player], **kwargs):
        super().__init__(*args, league=league, **kwargs)
        self.active_players = active_players
        self.by_id = {player.pk: player for player in active_players}
        self.fields["host"].choices = [("", "—"), *((player.pk, player.name) for player in active_players)]
        for player in active_players:
            self.fields[f"table_{player.pk}"] = forms.CharField(required=False)
        self.table_errors: dict[int, str] = {}

    def section_errors(self) -> dict[str, str]:
        """The first problem of who is here and of the tables, for the page's sections."""
        return {name: self.errors[name][0] for name in self.SECTIONS if name in self.errors}

    def clean_players(self):
        return present_players(self.cleaned_data["players"], self.active_players)

    def clean(self):
        data = super().clean()
        present, count = data.get("players"), data.get("table_count")
        if present is None or count is None:
            return data
        host = self.by_id.get(data.get("host"))
        if host is not None and host not in present:
            self.add_error("host", gettext("Pick the host among the players here."))
        tables = self._tables(present, count)
        data["host"] = host
        data["tables"] = [host_first(table, host) for table in tables if table]
        if len(data["tables"]) < 2:
            self.add_error("tables", gettext("A club night has at least two tables."))
        return data

    def _tables(self, present: list[Player], count: int) -> list[list[Player]]:
        """The players at their tables (1 to ``count``), each table in the order posted; every
        player without a table, and every table the game does not allow, is a problem."""
        tables: list[list[Player]] = [[] for _number in range(count)]
        for player in present:
            number = whole_number(str(self.cleaned_data.get(f"table_{player.pk}") or ""))
            if number is None or not 1 <= number <= count:
                message = gettext("Choose a table for %(name)s.") % {"name": player.name}
                self.add_error("tables", message)
                continue
            tables[number - 1].append(player)
        for number, players in enumerate(tables, start=1):
            problems = table_problems(self.league, players) if players else []
            if problems:
                message = gettext("Table %(number)s: %(problem)s") % {
                    "number": number,
                    "problem": problems[0]["message"],
                }
                self.table_errors[number] = message
                self.add_error("tables", message)
        return tables

    def arrangement(self) -> list[dict]:
        """The tables as the page shows them: ``table_count`` of them, each with its players in
        seat order as posted (or as proposed, before anything is posted) and its problem. A
        player without a valid table is shown at the first."""
        source = self.data if self.is_bound else self.initial
        count = whole_number(str(source.get("table_count") or "")) or 2
        count = min(max(count, 2), MAX_TABLES)
        tables: list[list[Player]] = [[] for _number in range(count)]
        for player in self._named(source):
            number = whole_number(str(source.get(f"table_{player.pk}") or "")) or 1
            tables[number - 1 if number <= count else 0].append(player)
        return [
            {"number": number, "players": players, "problem": self.table_errors.get(number)}
            for number, players in enumerate(tables, start=1)
        ]

    def _named(self, source) -> list[Player]:
        """The active players ``source`` names in ``players``, in order, each once."""
        raw = source.getlist("players") if hasattr(source, "getlist") else source.get("players") or []
        named: list[Player] = []
        for value in raw:
            player = self.by_id.get(whole_number(str(value)))
            if player is not None and player not in named:
                named.append(player)
        return named
