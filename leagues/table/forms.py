"""Forms of the table: starting an evening, its end time, reopening it, and the hidden inputs of
the hand forms.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues import games as leagues_games
from leagues.fields import STALE_FORM, ReasonForm, WholeNumberField
from leagues.models import League, Player
from leagues.table import meetings
from scoring.numbers import whole_number
from scoring.registry import START_TOTALS, TEAMS, get_game


class ReopenMeetingForm(ReasonForm):
    """An admin reopens a closed evening; the reason is shown on its history page."""

    label = _("Why is the evening reopened?")
    help = _("Kept in the evening's history, with your name and the time.")
    required = _("Say why the evening is reopened.")


# --- starting a meeting -----------------------------------------------------------------------

TEAM_NAMES = ("A", "B", "C")


class SeatingField(forms.Field):
    """The players tapped at the table, in seat order (the host first), as their ids: the
    page posts one ``players`` value per seat, in order. The ids are checked by the form,
    which knows the league."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value):
        return [str(item) for item in value or ()]


END_TIME_INVALID = _("End time: enter a time such as 23:00, or leave it empty.")


def end_time_field() -> forms.TimeField:
    """The end time of an evening (optional); its help says what it does in the league's
    game (``end_time_help``)."""
    # <input type=time> only takes ISO values (see StartMeetingForm.date).
    return forms.TimeField(
        label=_("End time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={"invalid": END_TIME_INVALID},
    )


def end_time_help(game: str):
    """What the end time does: in games played in host rounds (Doppelkopf) the round in
    progress is finished, then the evening ends; the other games have no rounds, and the
    clock ends no game (services, "the end of the evening")."""
    if leagues_games.has_host_rounds(game):
        return _("After it, the round the host started is finished, then the evening ends.")
    return _("This game has no rounds: the clock ends no game. End the evening below the sheet when you stop.")


class EndTimeForm(forms.Form):
    """Set, change or clear (empty) the end time of an open evening."""

    end_time = end_time_field()

    def __init__(self, *args, game: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["end_time"].help_text = end_time_help(game)


class EveningForm(forms.Form):
    """What every start of an evening asks besides who sits where: the date, the end time and
    the pennant (games with penalty soli). ``MEETING_FIELDS`` are listed below the seating."""

    # <input type=date/time> only takes ISO values: without a fixed format Django writes the
    # German "20.11.2026", the browser shows an empty date and the form fails as "required".
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    end_time = end_time_field()
    pennant_holder = forms.ModelChoiceField(
        label=_("Pennant holder"),
        queryset=Player.objects.none(),
        required=False,
        help_text=_("Whoever won the last meeting had to bring the pennant."),
    )
    pennant_forgotten = forms.BooleanField(label=_("He forgot the pennant"), required=False)

    MEETING_FIELDS = ("date", "end_time", "pennant_holder", "pennant_forgotten")

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.league = league
        self.fields["end_time"].help_text = end_time_help(league.game)
        self.fields["pennant_holder"].queryset = league.players.filter(active=True).order_by("name")
        if not leagues_games.has_pennant(league.game):
            # The pennant comes with penalty soli (league.md): only games that play them.
            del self.fields["pennant_holder"]
            del self.fields["pennant_forgotten"]

    def meeting_fields(self):
        """The fields the page lists under the seating (date, end time, pennant)."""
        return [self[name] for name in self.MEETING_FIELDS if name in self.fields]

    def clean_date(self):
        date = self.cleaned_data["date"]
        problem = meetings.meeting_date_problem(date)
        if problem:
            raise forms.ValidationError(problem)
        return date

    def clean(self):
        data = super().clean()
        if data.get("pennant_forgotten") and not data.get("pennant_holder"):
            self.add_error("pennant_holder", gettext("Say who forgot the pennant."))
        return data


class StartMeetingForm(EveningForm):
    """Start a meeting: the date, the end time, the pennant (games with penalty soli), the
    players in seat order (``players``), their teams (``team_<player id>``, team games) and
    the scores of a game carried over from an earlier evening (``start_<player id>`` or
    ``start_team_<team>``, race games).

    ``cleaned_data`` gives ``players`` as Player objects in seat order, ``teams`` ({team:
    [names]} or None) and ``start_totals`` ({party: score} or None). ``seated`` and
    ``team_of`` hold what could be read even when the form is refused, so that the page shows
    the table as it was tapped. ``teams`` and ``start_totals`` are worked out in clean() from
    the per-player inputs: they are disabled fields, never read from the post, so that their
    problems are shown where the page shows them (``section_errors``).
    """

    players = SeatingField(required=False)
    teams = forms.Field(required=False, disabled=True)
    start_totals = forms.Field(required=False, disabled=True)

    SECTIONS = ("players", TEAMS, START_TOTALS)

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, league=league, **kwargs)
        spec = get_game(league.game)
        self.team_game = TEAMS in spec.extra_fields
        # Race games may go on with a game left unfinished on an earlier evening.
        self.carry_game = START_TOTALS in spec.extra_fields
        self.active_players = list(league.players.filter(active=True).order_by("name"))
        for player in self.active_players:
            if self.team_game:
                self.fields[f"team_{player.pk}"] = forms.CharField(required=False)
            if self.carry_game:
                self.fields[f"start_{player.pk}"] = forms.CharField(required=False)
        if self.carry_game:
            for team in TEAM_NAMES:
                self.fields[f"start_team_{team}"] = forms.CharField(required=False)
        self.seated: list[Player] = []
        self.team_of: dict[str, str] = {}

    def section_errors(self) -> dict[str, str]:
        """The first problem of the seating, the teams and the carried-over scores, for the
        page's sections."""
        return {name: self.errors[name][0] for name in self.SECTIONS if name in self.errors}

    def typed(self, name: str) -> str:
        """What was typed into one of the per-player inputs (empty when not bound)."""
        if not self.is_bound or name not in self.fields:
            return ""
        return self[name].value() or ""

    def carry_open(self) -> bool:
        """Whether the carried-over scores are shown open: something was typed, or is wrong."""
        names = [n for n in self.fields if n.startswith("start_") and n != START_TOTALS]
        return START_TOTALS in self.errors or any(self.typed(n).strip() for n in names)

    def clean_players(self):
        by_id = {p.pk: p for p in self.active_players}
        problem = None
        for raw in self.cleaned_data["players"]:
            player = by_id.get(whole_number(raw))
            if player is None:
                problem = gettext("Pick players of this league only.")
            elif player in self.seated:
                problem = gettext("Each player can sit at one seat only.")
            else:
                self.seated.append(player)
        if not self.seated and problem is None:
            problem = gettext("Tap the players at the table, the host first.")
        if problem:
            raise forms.ValidationError(problem)
        return list(self.seated)

    def clean(self):
        data = super().clean()
        data[TEAMS] = self._teams() if self.team_game else None
        data[START_TOTALS] = None
        if self.carry_game and "players" not in self.errors and TEAMS not in self.errors:
            data[START_TOTALS] = self._start_totals(data[TEAMS])
        return data

    def _teams(self):
        """{team: [names]} in seat order, or None when nobody is put in a team."""
        chosen = {p.pk: self.cleaned_data.get(f"team_{p.pk}", "") for p in self.seated}
        if not any(chosen.values()):
            return None
        if not all(team in TEAM_NAMES for team in chosen.values()):
            self.add_error(TEAMS, gettext("Put every player in a team, or nobody for no teams."))
            return None
        teams: dict[str, list[str]] = {}
        for player in self.seated:
            teams.setdefault(chosen[player.pk], []).append(player.name)
            self.team_of[player.name] = chosen[player.pk]
        return teams

    def _start_totals(self, teams):
        """The scores carried over, by party: the teams' when teams are given, else the
        players'. Empty inputs count as 0 (the engine starts missing parties at 0); all empty
        gives None. The range is scoring's (start_totals)."""
        typed = self._typed_start_totals()
        if typed is None:
            return None
        by_player, by_team = typed
        if teams:
            if by_player:
                self.add_error(START_TOTALS, gettext("Playing in teams: enter the teams' scores, not the players'."))
                return None
            unknown = sorted(set(by_team) - set(teams))
            if unknown:
                self.add_error(START_TOTALS, gettext("Team %(team)s has no players tonight.") % {"team": unknown[0]})
                return None
            return by_team or None
        if by_team:
            self.add_error(START_TOTALS, gettext("Without teams, enter each player's score."))
            return None
        return by_player or None

    def _typed_start_totals(self):
        """The scores typed, as ({player name: score}, {team: score}); None (and the problem
        added) at the first one that cannot be taken."""
        by_player, by_team = {}, {}
        seated = {str(p.pk): p for p in self.seated}
        by_pk = {str(p.pk): p for p in self.active_players}
        for name, raw in self._typed():
            value = whole_number(raw)  # ASCII digits only
            if value is None:
                self.add_error(START_TOTALS, gettext("Enter whole numbers only, for example 35."))
                return None
            key = name.removeprefix("start_")
            if name not in self.fields:
                self.add_error(START_TOTALS, gettext("Pick players of this league only."))
                return None
            if key.startswith("team_"):
                by_team[key.removeprefix("team_")] = value
            elif key in seated:
                by_player[seated[key].name] = value
            else:
                message = gettext("%(name)s is not at the table: leave that score empty.")
                self.add_error(START_TOTALS, message % {"name": by_pk[key].name})
                return None
        return by_player, by_team

    def _typed(self):
        """(input name, what was typed, stripped) for each start score not left empty.
        Undeclared names too (a player of another league, or one no longer active): what
        was typed for them is refused, never dropped unseen."""
        for name in self.data:
            if not name.startswith("start_") or name == START_TOTALS:
                continue
            raw = self.cleaned_data.get(name) if name in self.fields else self.data.get(name)
            raw = (raw or "").strip()
            if raw:
                yield name, raw


# --- the hidden inputs of the hand forms ----------------------------------------------------


class HandEntryForm(forms.Form):
    """The hidden inputs of the hand-entry form, besides the hand itself (which its game's
    module reads): the number the phone was about to enter, and the key this rendering of
    the form got, so that a double tap or a re-sent POST enters the hand once, and the mark of
    the sheet it was sent from (``leagues.table.sheet.sheet_mark``)."""

    expected_hand = WholeNumberField(min_value=1, required=False, error_messages=STALE_FORM)
    idempotency_key = forms.UUIDField(required=False, error_messages=STALE_FORM)
    sheet_mark = forms.CharField(required=False, max_length=64, error_messages=STALE_FORM)


class HandVersionForm(forms.Form):
    """The hidden input of the correction, delete and restore forms: the version of the hand
    the page showed, so that a write over someone else's newer one is refused."""

    version = WholeNumberField(min_value=1, error_messages=STALE_FORM)
