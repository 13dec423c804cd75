"""Forms of the cashbox: an entry in or out, a counter-entry, a count, a member's bank
account. Amounts are read in the page's language by the app's AmountField ("12,50" in
German); every message names its field."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.cashbox import selectors
from leagues.cashbox.rules import rate_number
from leagues.cashbox.services import EARLIEST_COUNT, read_iban
from leagues.exceptions import InvalidInput
from leagues.fields import AmountField, WholeNumberField, scoring_text
from leagues.models import EntryKind
from leagues.money import decimal_separator, number_text
from scoring import money_rules
from scoring import options as kinds
from scoring.errors import ScoringError
from scoring.limits import MAX_MONEY_CENTS

MAX_MONEY = Decimal(MAX_MONEY_CENTS) / 100


def _amount_field(*, label, least):
    return AmountField(label=label, min_value=least, max_value=MAX_MONEY, max_digits=9, decimal_places=2)


def _name_the_field(form):
    """Every message of every field starts with its label ("Amount: …"), as the bill's do."""
    example = number_text(Decimal("12.50"), places=2)
    for field in form.fields.values():
        field.error_messages.update(
            {
                "required": gettext("%(field)s: this is needed.") % {"field": field.label},
                "invalid": gettext("%(field)s: type it as %(example)s.")
                % {"field": field.label, "example": example if isinstance(field, AmountField) else "…"},
                "max_decimal_places": gettext("%(field)s: at most two decimals (cents).") % {"field": field.label},
                "invalid_choice": gettext("%(field)s: choose one of the list.") % {"field": field.label},
                "max_length": gettext("%(field)s: at most %(max)s characters.")
                % {"field": field.label, "max": getattr(field, "max_length", "")},
            }
        )
        if isinstance(field, AmountField):
            bounds = {"field": field.label, "least": number_text(field.min_value), "most": number_text(field.max_value)}
            for code in ("min_value", "max_value", "max_digits", "max_whole_digits"):
                field.error_messages[code] = gettext("%(field)s: from %(least)s to %(most)s.") % bounds


class EntryForm(forms.Form):
    kind = forms.ChoiceField(label=_("What"))
    amount = _amount_field(label=_("Amount (€)"), least=Decimal("0.01"))
    note = forms.CharField(label=_("Why"), max_length=200)
    season = forms.TypedChoiceField(label=_("Season"), required=False, coerce=int, empty_value=None)

    def __init__(self, *args, membership, seasons, **kwargs):
        # A deposit first: an evening settled in the app is booked by its ticks, and booking
        # it here as well would count its money twice.
        kwargs.setdefault("initial", {"kind": EntryKind.DEPOSIT})
        super().__init__(*args, **kwargs)
        labels = {**dict(EntryKind.choices), EntryKind.EVENING: _("payments of an evening not settled in the app")}
        self.fields["kind"].choices = [(kind, labels[kind]) for kind in selectors.kinds_for(membership)]
        self.seasons = {s.number: s for s in seasons}
        self.fields["season"].choices = [("", gettext("none")), *[(s.number, str(s)) for s in seasons]]
        _name_the_field(self)

    def chosen_season(self):
        number = self.cleaned_data.get("season")
        return None if number is None else self.seasons[number]


class CounterForm(forms.Form):
    note = forms.CharField(label=_("Why is it undone?"), max_length=200)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _name_the_field(self)


class CountForm(forms.Form):
    amount = _amount_field(label=_("Counted (€)"), least=0)
    counted_on = forms.DateField(
        label=_("Counted on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("initial", {"counted_on": timezone.localdate()})
        super().__init__(*args, **kwargs)
        _name_the_field(self)

    def clean_counted_on(self):
        day = self.cleaned_data["counted_on"]
        if not EARLIEST_COUNT <= day <= timezone.localdate():
            raise forms.ValidationError(gettext("Counted on: a day from 1900 to today."))
        return day


class BankAccountForm(forms.Form):
    holder = forms.CharField(
        label=_("Account holder"),
        max_length=70,
        help_text=_("The name the account is in, as your bank writes it."),
    )
    iban = forms.CharField(label=_("IBAN"), max_length=42, help_text=_("Spaces are fine: DE89 3704 0044 0532 0130 00."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _name_the_field(self)
        self.fields["iban"].widget.attrs.update(
            {"autocomplete": "off", "spellcheck": "false", "autocapitalize": "characters"}
        )

    def clean_iban(self):
        try:
            return read_iban(self.cleaned_data["iban"])
        except InvalidInput as error:
            raise forms.ValidationError(error.errors[0]["message"]) from None


# --- a league's money rules -------------------------------------------------------------------


# The money options each game's evenings give a use to: points (Doppelkopf, 1000, 56), games
# and matches won (the Maw family, 56), solos and the pennant (Doppelkopf); the evening fee
# everywhere. A stake "per game" offered at a Doppelkopf table reads as "per hand" and would
# silently cost nothing.
POINTS = ("per_point", "rate")
STAKES = ("per_game", "per_game_to", "per_match", "per_match_to")
MAW = ("twenty_five", "forty_five", "one_ten", "auction_45", "spoil_five")
OFFERED = {
    "doppelkopf": (*POINTS, "per_evening", "per_lost_solo", "per_missed_pennant"),
    "thousand": (*POINTS, "per_evening"),
    "fifty_six": (*POINTS, *STAKES, "per_evening"),
    **{game: (*STAKES, "per_evening") for game in MAW},
}


class MoneyRulesForm(forms.Form):
    """The league's money rules (scoring/money_rules.py), one field per option, the rate per
    point typed in euros in the page's language ("0,05") or in cents with a unit ("5 ct").
    Shown as the "Money" section of the house rules; ``overrides()`` keeps only what differs
    from the defaults, which play for nothing. With ``game``, only the options OFFERED for
    it are fields; the others keep the values the rules hold."""

    def __init__(self, *args, rules: dict | None = None, game: str | None = None, **kwargs):
        kwargs.setdefault("prefix", "money")
        super().__init__(*args, **kwargs)
        self.values = money_rules.resolve_money_rules(rules or {})
        offered = OFFERED.get(game, tuple(money_rules.DEFAULTS))
        for option in money_rules.OPTIONS:
            if option.name in offered:
                self.fields[option.name] = self._field(option, self.values[option.name])
        if "rate" in offered:
            self.fields["rate"] = forms.CharField(
                label=_("Money per point (€)"),
                help_text=_("What one point is worth, like 0,05 (or 5 ct)."),
                initial=rate_number(self.values["rate"]),
                max_length=20,
                required=False,
                widget=forms.TextInput(attrs={"inputmode": "decimal"}),
            )
        self.order_fields(["per_point", "rate"])

    @staticmethod
    def _field(option, value):
        common = {"label": scoring_text(option.label), "help_text": scoring_text(option.help)}
        if option.kind == kinds.CHOICE:
            choices = [(c, scoring_text(option.choice_labels.get(c, c))) for c in option.choices]
            return forms.ChoiceField(choices=choices, initial=value, **common)
        limits = gettext("From %(min)s to %(max)s.") % option.limits()
        common["help_text"] = f"{common['help_text']} {limits}".strip()
        return WholeNumberField(
            min_value=option.minimum,
            max_value=option.maximum,
            initial=value,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            **common,
        )

    def clean_rate(self):
        text = self.cleaned_data.get("rate") or ""
        if not text.strip():
            return self.values["rate"]  # left empty: the rate stays as it was
        try:
            return money_rules.rate_text(money_rules.parse_rate(text, decimal_sep=decimal_separator()))
        except ScoringError as error:
            raise forms.ValidationError([p.render(gettext) for p in error.problems]) from error

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            self.rules = money_rules.resolve_money_rules(self._chosen(cleaned))
        except ScoringError as error:
            for problem in error.problems:
                self.add_error(None, problem.render(gettext))
        return cleaned

    def _chosen(self, cleaned) -> dict:
        """The rules as posted; an option the form does not offer keeps its value."""
        return {name: cleaned[name] if name in self.fields else self.values[name] for name in money_rules.DEFAULTS}

    def overrides(self) -> dict:
        """Only what differs from the defaults (the rate only where money per point is on)."""
        changed = {k: v for k, v in self.rules.items() if v != money_rules.DEFAULTS[k]}
        if self.rules["per_point"] == money_rules.OFF:
            changed.pop("rate", None)
        return changed

    def sections(self) -> list[dict]:
        """One section in the shape of RulesForm.sections, for the same template; titled by
        what it holds, since the fieldset around it is titled "Money" already."""
        errors = self.errors if self.is_bound else {}
        rows = [({"label": self[n].label, "help": "", "kind": "money"}, [self[n]]) for n in self.fields]
        current = getattr(self, "rules", None) if self.is_bound else self.values
        changed = sum(1 for k, v in (current or {}).items() if v != money_rules.DEFAULTS[k])
        return [
            {
                "label": gettext("Stakes and fees"),
                "rows": rows,
                "changed": changed,
                "errors": bool(errors),
                "summary": ", ".join(str(self[n].label) for n in self.fields),
            }
        ]
