"""Form fields and choices shared by every part: numbers in ASCII digits, amounts, the games and
their presets, a reason, the notice of a form sent twice.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.models import GAME_LABELS
from leagues.money import number_text, read_number
from scoring.numbers import AmbiguousNumber, whole_number
from scoring.registry import GAME_MODULES, GameSpec, get_game

# The hidden inputs (and the buttons' values) are written by the page itself: a problem with
# one means a page from an older version of the app, or a form cut short, never a mistake.
_STALE_FORM = _("This form is out of date: reload the page and try again.")
STALE_FORM = {key: _STALE_FORM for key in ("required", "invalid", "min_value", "invalid_choice")}

# --- numbers: ASCII digits only -----------------------------------------------------------------


class WholeNumberField(forms.IntegerField):
    """Django's IntegerField, reading ASCII digits only (scoring/numbers.py): int() takes
    "١٢٣" and "１２３" for 123, and gives up on 4,301 digits with Python's digit limit."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = whole_number(str(value))
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class AmountField(forms.DecimalField):
    """Django's DecimalField for money and other decimals a person types, read in the page's
    language (leagues/seasons/money.py): "187,40" and "1.234,50" in German, "187.40" and "1,234.50"
    in English, ASCII digits only; what has two readings ("1.234" in German) is refused with
    a message naming the field and both readings, never guessed.

    A text input with inputmode="decimal", not type="number": Chromium's number input
    refuses "187,40" (the value reaches the server empty), and a phone's decimal keypad
    then shows the comma a German types. The server does every check: no pattern attribute.
    Too many decimals are read, so that the field's own check can say how many it takes.
    """

    widget = forms.TextInput
    default_error_messages = {
        "ambiguous": _("%(field)s: does “%(value)s” mean %(grouped)s or %(decimal)s? Please type it as one of these."),
    }

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("localize", True)  # initial values shown as the language writes them
        super().__init__(*args, **kwargs)

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        attrs.update({"inputmode": "decimal", "autocomplete": "off", "spellcheck": "false"})
        return attrs

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal):
            return value
        text = str(value).strip()
        try:
            number = read_number(text, places=6)
        except AmbiguousNumber as both:
            raise forms.ValidationError(
                self.error_messages["ambiguous"],
                code="ambiguous",
                params={
                    "field": self.label,
                    "value": text,
                    "grouped": number_text(both.grouped, grouping=False),
                    "decimal": number_text(both.decimal, grouping=False),
                },
            ) from None
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number

    def run_validators(self, value):
        # The bounds in the messages written as the page's language writes numbers
        # ("höchstens 1.000.000" in German), like everything else the field shows.
        try:
            super().run_validators(value)
        except forms.ValidationError as error:
            for item in error.error_list:
                if item.params and "limit_value" in item.params:
                    item.params = {**item.params, "limit_value": number_text(item.params["limit_value"])}
            raise


# --- games and presets ------------------------------------------------------------------------


def available_games() -> list[tuple[str, GameSpec]]:
    """The games whose engine is installed, in the registry's order.

    While an engine is still being written its module is missing; the game is then left
    out of the choices instead of breaking the page.
    """
    games = [(name, installed_game(name)) for name in GAME_MODULES]
    return [(name, spec) for name, spec in games if spec is not None]


def installed_game(name: str) -> GameSpec | None:
    try:
        return get_game(name)
    except ModuleNotFoundError as error:
        if error.name != GAME_MODULES[name][0]:
            raise  # a broken engine must fail loudly, not vanish from the list
        return None


def game_label(name: str, spec: GameSpec | None = None) -> str:
    if name in GAME_LABELS:
        return str(GAME_LABELS[name])
    return spec.label if spec is not None else name


def preset_label(game: str, variant: str) -> str:
    spec = installed_game(game) if game in GAME_MODULES else None
    return scoring_text(spec.preset_labels.get(variant, variant)) if spec else variant


def preset_choices(spec: GameSpec) -> list[tuple[str, str]]:
    return [(key, scoring_text(spec.preset_labels.get(key, key))) for key in spec.presets]


class ReasonForm(forms.Form):
    """Why an admin reopens something closed: kept with his name and the time. Subclasses
    give the words (``label``, ``help``, ``required``)."""

    label = help = required = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"] = forms.CharField(
            label=self.label,
            # services.REASON_MAX: the services check it again.
            max_length=500,
            widget=forms.Textarea(attrs={"rows": 3}),
            help_text=self.help,
            error_messages={"required": self.required},
        )

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(self.required)
        return reason


def scoring_text(text: Any) -> str:
    """A text scoring/ marked for translation, in the current language."""
    return gettext(str(text)) if text else ""
