"""Forms of a tournament: a new one, its players, a pair or team, the next round's draw. Every
message names its field; the services check everything again under their locks."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.fields import WholeNumberField
from leagues.models import Player, Tournament
from leagues.models.tournament import FORMAT_LABELS
from leagues.tournaments.services import GAMES_STEP, MAX_ROUNDS, MOST_GAMES, OFFERED


def _name_the_fields(form: forms.Form) -> None:
    """Every message of every field starts with its label ("Rounds: …")."""
    for field in form.fields.values():
        label = {"field": field.label}
        field.error_messages.update(
            {
                "required": gettext("%(field)s: this is needed.") % label,
                "invalid": gettext("%(field)s: this is not a valid value.") % label,
                "invalid_choice": gettext("%(field)s: choose one of the list.") % label,
                "invalid_pk_value": gettext("%(field)s: choose one of the list.") % label,
                "max_length": gettext("%(field)s: at most %(max)s characters.")
                % {**label, "max": getattr(field, "max_length", "")},
            }
        )
        if isinstance(field, WholeNumberField):
            bounds = {**label, "least": field.min_value, "most": field.max_value}
            for code in ("min_value", "max_value"):
                field.error_messages[code] = gettext("%(field)s: from %(least)s to %(most)s.") % bounds


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=Tournament._meta.get_field("name").max_length)
    format = forms.ChoiceField(label=_("Format"))
    rounds_planned = WholeNumberField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=3)
    games_per_player = WholeNumberField(
        label=_("Games per player and round"),
        min_value=GAMES_STEP,
        max_value=MOST_GAMES,
        required=False,
        help_text=_(
            "Doppelkopf: a multiple of four; empty: as the DDV rules say, 24 (a table of five plays 30). "
            "56 teams: the games of a match, a multiple of six; empty: 24. A league that plays 56 with "
            "tokens plays each match until a team has lost its tokens. Maw pairs: leave it empty."
        ),
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = [(key, FORMAT_LABELS[key]) for key in OFFERED]
        _name_the_fields(self)


class PlayersForm(forms.Form):
    prefix = "entrants"
    players = forms.ModelMultipleChoiceField(
        label=_("The league's players"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = league.players.filter(active=True).order_by("name")
        _name_the_fields(self)


class PartyForm(forms.Form):
    prefix = "party"
    name = forms.CharField(label=_("Name of the pair or team"), max_length=40)
    players = forms.ModelMultipleChoiceField(
        label=_("Its players"), queryset=Player.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = league.players.filter(active=True).order_by("name")
        _name_the_fields(self)


class DrawForm(forms.Form):
    prefix = "draw"
    date = forms.DateField(label=_("Date"))
    host = forms.ModelChoiceField(
        label=_("Host"),
        queryset=Player.objects.none(),
        help_text=_("Whose evening the round is in the league's host rotation."),
    )

    def __init__(self, *args, league, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("date", timezone.localdate())
        super().__init__(*args, **kwargs)
        self.fields["host"].queryset = league.players.filter(active=True).order_by("name")
        _name_the_fields(self)
