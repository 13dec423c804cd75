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
from leagues.cashbox.services import EARLIEST_COUNT, read_iban
from leagues.exceptions import InvalidInput
from leagues.fields import AmountField
from leagues.models import EntryKind
from leagues.money import number_text
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
        super().__init__(*args, **kwargs)
        labels = dict(EntryKind.choices)
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
