"""Forms of the account and league pages.

The house-rules form is generated from the option metadata that ``scoring/`` declares for
each game (label, help, kind, choices, the preset's value as default), so a new option shows
up on the page without touching this file, and no rule of any game is written here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import options as kinds
from scoring.numbers import AmbiguousNumber, whole_number
from scoring.registry import GAME_MODULES, GameSpec, get_game

from .models import GAME_LABELS, League, Player, Role
from .money import number_text, read_number
from .names import NameProblem, check_new_name, clean_name

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
    language (leagues/money.py): "187,40" and "1.234,50" in German, "187.40" and "1,234.50"
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
    return _t(spec.preset_labels.get(variant, variant)) if spec else variant


def preset_choices(spec: GameSpec) -> list[tuple[str, str]]:
    return [(key, _t(spec.preset_labels.get(key, key))) for key in spec.presets]


# --- accounts ---------------------------------------------------------------------------------


class SignupForm(UserCreationForm):
    """Sign up, on its own or through an invite: a login name, an e-mail address for a
    forgotten password (optional), the name the others know you by, a password twice.

    Without a league (signing up on its own) the name at the table may stay empty: founding
    a league then names the founder's player after his login name (services.create_league).
    """

    display_name = forms.CharField(
        label=_("Your name at the table"),
        max_length=Player._meta.get_field("name").max_length,
        help_text=_("How the others see you on the score sheet, e.g. “Anna” or “Ben K.”."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ["username", "email", "display_name"]

    def __init__(self, *args, league: League | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.league = league
        self.fields["email"].help_text = _("Optional. Only used to send you a link when you forget your password.")
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        if league is None:
            self.fields["display_name"].required = False
            self.fields["display_name"].help_text = _(
                "How the others see you on the score sheet, e.g. “Anna” or “Ben K.”. Empty: your username."
            )

    def clean_display_name(self):
        # Whether the name is too alike another player's is up to services.accept_invite,
        # which knows whether a new player is made at all (an invite may name one).
        value = self.cleaned_data["display_name"]
        if not value.strip() and not self.fields["display_name"].required:
            return ""
        return clean_name_field(value)

    def save(self, commit=True):
        user = super().save(commit=False)
        user.first_name = self.cleaned_data["display_name"]
        if commit:
            user.save()
        return user


# --- leagues ----------------------------------------------------------------------------------


class PresetForm(forms.Form):
    """A game and one of its presets. With ``game`` given the game is fixed (a league's
    house rules), else it is chosen among the installed games."""

    game = forms.ChoiceField(label=_("Game"))
    variant = forms.ChoiceField(label=_("Rule set"))

    def __init__(self, *args, game: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if game is not None:
            spec = installed_game(game) if game in GAME_MODULES else None
            games = [(game, spec)] if spec is not None else []
            self.fields["game"].widget = forms.HiddenInput()
        else:
            games = available_games()
        self.specs = dict(games)
        # Changing the game or the preset reloads the options below them (leagues/create.html#rules).
        reload = {
            "hx-get": reverse("league_options_hx"),
            "hx-trigger": "change",
            "hx-target": "#rules-part",
            "hx-swap": "outerHTML",
            "hx-include": "closest form",
        }
        self.fields["variant"].widget.attrs.update(reload)
        if game is None:
            self.fields["game"].widget.attrs.update(reload)
        self.fields["game"].choices = [(name, game_label(name, spec)) for name, spec in games]
        self.game_name = self._raw("game")
        if self.game_name not in self.specs:
            self.game_name = next(iter(self.specs), None)
        self.spec = self.specs.get(self.game_name)
        self.fields["variant"].choices = preset_choices(self.spec) if self.spec else []
        if not self.is_bound:
            self.initial = {**self.initial, "game": self.game_name, "variant": self.chosen_variant()}

    def _raw(self, name):
        return (self.data.get(name) if self.is_bound else self.initial.get(name)) or ""

    def chosen_variant(self) -> str | None:
        """The preset picked, or the game's default when the pick is not one of its presets
        (the game was just changed)."""
        if self.spec is None:
            return None
        variant = self._raw("variant")
        return variant if variant in self.spec.presets else self.spec.default_preset

    def rules_form(self, data=None, rules=None) -> RulesForm | None:
        """The options form of the chosen game and preset."""
        if self.spec is None:
            return None
        return RulesForm(data, spec=self.spec, preset=self.chosen_variant(), rules=rules)


class LeagueForm(PresetForm):
    name = forms.CharField(label=_("Name of the league"), max_length=League._meta.get_field("name").max_length)
    slug = forms.SlugField(
        label=_("Short name for the address"),
        max_length=League._meta.get_field("slug").max_length,
        required=False,
        help_text=_("Letters, digits and dashes; suggested from the name."),
    )
    field_order = ["name", "slug", "game", "variant"]

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("slug") and cleaned.get("name"):
            cleaned["slug"] = suggest_slug(cleaned["name"])
            if not cleaned["slug"]:
                self.add_error("slug", gettext("Please choose a short name with letters or digits."))
        elif cleaned.get("slug") and League.objects.filter(slug=cleaned["slug"]).exists():
            self.add_error("slug", gettext("Another league already uses this short name."))
        return cleaned


def suggest_slug(name: str) -> str:
    """A free slug made from ``name`` ("Stammtisch", then "stammtisch-2", ...)."""
    base = slugify(name)[:50]
    if not base:
        return ""
    slug, n = base, 1
    while League.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


class RulesForm(forms.Form):
    """Every option of a game, one field each (two or more for pairs and mappings), starting
    at the values of ``rules`` (a preset, or a league's current rules)."""

    def __init__(self, *args, spec: GameSpec, preset: str, rules: dict[str, Any] | None = None, **kwargs):
        kwargs.setdefault("prefix", "rule")
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.preset = dict(spec.presets[preset])
        values = {**self.preset, **(rules or {})}
        self.values = values
        self.rows = []  # (option, [field names]) in the order the game declares them
        for option in spec.options:
            names = self._add_fields(option, values.get(option.name))
            self.rows.append((option, names))

    # Each kind of option becomes plain form fields; values are converted back in clean().
    def _add_fields(self, option, value) -> list[str]:
        # scoring/ only marks its texts for translation: translate them here, per request.
        common = {"label": _t(option.label), "help_text": _help(option)}
        name = option.name
        if option.kind == kinds.BOOL:
            self.fields[name] = forms.BooleanField(required=False, initial=bool(value), **common)
        elif option.kind == kinds.INT:
            self.fields[name] = WholeNumberField(
                required=not option.nullable,
                min_value=option.minimum,
                max_value=option.maximum,
                initial=value,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                **common,
            )
        elif option.kind == kinds.CHOICE:
            self.fields[name] = forms.ChoiceField(
                choices=self._choices(option), initial=_key(value), required=not option.nullable, **common
            )
        elif option.kind == kinds.MULTI:
            self.fields[name] = forms.MultipleChoiceField(
                choices=self._choices(option),
                initial=[_key(v) for v in value or ()],
                required=False,
                widget=forms.CheckboxSelectMultiple,
                **common,
            )
        elif option.kind == kinds.INT_PAIR:
            first, second = value if isinstance(value, (list, tuple)) and len(value) == 2 else (None, None)
            # A nullable pair ("not played") is both fields left empty.
            bounds = {"min_value": option.minimum, "max_value": option.maximum}
            self.fields[f"{name}__0"] = WholeNumberField(
                initial=first,
                label=_t(option.label),
                help_text=_help(option),
                required=not option.nullable,
                **bounds,
            )
            self.fields[f"{name}__1"] = WholeNumberField(
                initial=second, label=_t(option.label), required=not option.nullable, **bounds
            )
            return [f"{name}__0", f"{name}__1"]
        elif option.kind == kinds.MAPPING:
            names = []
            for choice in option.choices:
                field = f"{name}__{_key(choice)}"
                self.fields[field] = WholeNumberField(
                    initial=(value or {}).get(choice),
                    label=_t(option.choice_labels.get(choice, str(choice))),
                    required=not option.nullable,
                    min_value=option.minimum,
                    max_value=option.maximum,
                )
                names.append(field)
            return names
        else:
            raise ValueError(f"unknown option kind {option.kind!r}")
        return [name]

    @staticmethod
    def _choices(option):
        choices = [(_key(c), _t(option.choice_labels.get(c, str(c)))) for c in option.choices]
        if option.nullable and option.kind == kinds.CHOICE:
            choices = [("", gettext("none")), *choices]
        return choices

    def clean(self):
        cleaned = super().clean()
        self.rules = {}
        for option, names in self.rows:
            if any(n in self.errors for n in names):
                continue
            value = self._value(option, [cleaned.get(n) for n in names])
            # scoring/ checks the value's shape (not a rule of the game): say so on the field.
            problem = option.check(value)
            if problem:
                self.add_error(names[0], gettext(problem) % option.limits())
                continue
            self.rules[option.name] = value
        return cleaned

    @staticmethod
    def _value(option, raw: list[Any]) -> Any:
        by_key = {_key(c): c for c in option.choices}
        if option.kind == kinds.CHOICE:
            return by_key.get(raw[0]) if raw[0] not in ("", None) else None
        if option.kind == kinds.MULTI:
            # In the order the game lists them, so equal selections compare equal.
            chosen = set(raw[0] or ())
            return [c for c in option.choices if _key(c) in chosen]
        if option.kind == kinds.INT_PAIR:
            return None if raw == [None, None] else list(raw)
        if option.kind == kinds.MAPPING:
            if option.nullable and all(v is None for v in raw):
                return None
            return dict(zip(option.choices, raw, strict=True))
        return raw[0]

    def overrides(self) -> dict[str, Any]:
        """Only what differs from the preset: the league follows the preset for the rest."""
        return {name: value for name, value in self.rules.items() if value != self.preset.get(name)}

    def field_rows(self):
        """For the template: each option with its bound fields."""
        return [(option, [self[n] for n in names]) for option, names in self.rows]

    def sections(self) -> list[dict[str, Any]]:
        """For the template: the options under their ``group`` heading, so that a long list
        folds into a few sections on a phone. A section comes where its first option is
        declared; options without a group share one section ("Other", or "All options" when
        the game declares no groups). Each section says how many options differ from the
        preset and whether one has an error (it is then shown open)."""
        grouped = any(option.group for option, _names in self.rows)
        errors = self.errors if self.is_bound else {}
        current = getattr(self, "rules", None) if self.is_bound else self.values
        sections: dict[str, dict[str, Any]] = {}
        for option, names in self.rows:
            label = _t(option.group) if option.group else gettext("Other") if grouped else gettext("All options")
            section = sections.setdefault(
                label, {"label": label, "rows": [], "labels": [], "changed": 0, "errors": False}
            )
            section["rows"].append(
                ({"label": _t(option.label), "help": _help(option), "kind": option.kind}, [self[n] for n in names])
            )
            section["labels"].append(_t(option.label))
            if any(n in errors for n in names):
                section["errors"] = True
            elif current is not None and current.get(option.name) != self.preset.get(option.name):
                section["changed"] += 1
        for section in sections.values():
            section["summary"] = ", ".join(section["labels"])
        return list(sections.values())


def _t(text: Any) -> str:
    """A text scoring/ marked for translation, in the current language."""
    return gettext(str(text)) if text else ""


def _help(option) -> str:
    """The option's help, with its range when it holds numbers (scoring/options.py)."""
    text = _t(option.help)
    if option.kind not in kinds.NUMERIC:
        return text
    limits = gettext("From %(min)s to %(max)s.") % option.limits()
    return f"{text} {limits}" if text else limits


def _key(value: Any) -> str:
    return "" if value is None else str(value)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class PlayerForm(forms.Form):
    prefix = "player"
    name = forms.CharField(
        label=_("Name"),
        max_length=Player._meta.get_field("name").max_length,
        help_text=_("Someone who plays with you, with or without an account."),
    )

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.league = league

    def clean_name(self):
        # services.add_player checks again with the league locked; this shows it sooner.
        try:
            return check_new_name(self.cleaned_data["name"], self.league.players.values_list("name", flat=True))
        except NameProblem as problem:
            raise forms.ValidationError(problem.message) from problem


def clean_name_field(value: str) -> str:
    """A name typed into a form, cleaned by leagues/names.py, or the field's error."""
    try:
        return clean_name(value)
    except NameProblem as problem:
        raise forms.ValidationError(problem.message) from problem


class InviteForm(forms.Form):
    prefix = "invite"
    role = forms.ChoiceField(label=_("Joins as"), choices=Role.choices, initial=Role.MEMBER)
    player = forms.ModelChoiceField(
        label=_("Is this player"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("someone new"),
        help_text=_("Link the new account to a player who already has games in the league."),
    )

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        # Only this league's players who have no account yet.
        self.fields["player"].queryset = league.players.filter(user=None)


class ReopenMeetingForm(forms.Form):
    """An admin reopens a closed evening; the reason is kept and shown on its history page."""

    reason = forms.CharField(
        label=_("Why is the evening reopened?"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept in the evening's history, with your name and the time."),
        error_messages={"required": _("Say why the evening is reopened.")},
    )

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Say why the evening is reopened."))
        return reason


class ReopenSeasonForm(forms.Form):
    """An admin reopens a closed season; the reason is kept and shown on its bill page."""

    reason = forms.CharField(
        label=_("Why is the season reopened?"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept on the season's bill page, with your name and the time."),
        error_messages={"required": _("Say why the season is reopened.")},
    )

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Say why the season is reopened."))
        return reason
