"""Forms of the account, league and meeting pages: every input of the HTML pages is read
and checked here (the hand itself excepted: each game's module under ``leagues.hand_entry``
is that game's form layer).

The house-rules form is generated from the option metadata that ``scoring/`` declares for
each game (label, help, kind, choices, the preset's value as default), so a new option shows
up on the page without touching this file, and no rule of any game is written here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from scoring import options as kinds
from scoring.bill import DEFAULT_METHOD
from scoring.bill import METHODS as BILL_METHODS
from scoring.limits import MAX_CENTS_PER_POINT, MAX_MONEY_CENTS
from scoring.numbers import AmbiguousNumber, whole_number
from scoring.registry import GAME_MODULES, START_TOTALS, TEAMS, GameSpec, get_game

from . import import_checks, paper_reading, selectors, services
from .models import GAME_LABELS, League, Player, Role
from .money import canonical, money_text, number_text, read_number
from .names import NameProblem, check_new_name, clean_name, visible_name

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


class JoinForm(forms.Form):
    """A logged-in user joining by invite: only asks for a name when a new player is made
    for him."""

    display_name = forms.CharField(
        label=_("Your name at the table"), max_length=Player._meta.get_field("name").max_length
    )

    def clean_display_name(self):
        # Too alike another player's name is services.accept_invite's to say.
        return clean_name_field(self.cleaned_data["display_name"])


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


class NewLeagueForm(forms.Form):
    """A new league's name and short name (the address); the short name is suggested from
    the name when left empty, and must be free. For creating a league and importing one."""

    name = forms.CharField(
        label=_("Name of the league"),
        max_length=League._meta.get_field("name").max_length,
        validators=[visible_name],
    )
    slug = forms.SlugField(
        label=_("Short name for the address"),
        max_length=League._meta.get_field("slug").max_length,
        required=False,
        help_text=_("Letters, digits and dashes; suggested from the name."),
    )

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("slug") and cleaned.get("name"):
            cleaned["slug"] = suggest_slug(cleaned["name"])
            if not cleaned["slug"]:
                self.add_error("slug", gettext("Please choose a short name with letters or digits."))
        elif cleaned.get("slug") and League.objects.filter(slug=cleaned["slug"]).exists():
            self.add_error("slug", gettext("Another league already uses this short name."))
        return cleaned


class LeagueForm(NewLeagueForm, PresetForm):
    field_order = ["name", "slug", "game", "variant"]


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
            return self._add_pair_fields(option, value)
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
        elif option.kind == kinds.TIERS:
            return self._add_tier_fields(option, value)
        else:
            raise ValueError(f"unknown option kind {option.kind!r}")
        return [name]

    def _add_pair_fields(self, option, value) -> list[str]:
        # A nullable pair ("not played") is both fields left empty. The pairs are scores
        # made / failed; each input is labelled so, under the option's label (the legend).
        name = option.name
        first, second = value if isinstance(value, (list, tuple)) and len(value) == 2 else (None, None)
        bounds = {"min_value": option.minimum, "max_value": option.maximum, "required": not option.nullable}
        self.fields[f"{name}__0"] = WholeNumberField(
            initial=first, label=gettext("made"), help_text=_help(option), **bounds
        )
        self.fields[f"{name}__1"] = WholeNumberField(initial=second, label=gettext("failed"), **bounds)
        return [f"{name}__0", f"{name}__1"]

    def _add_tier_fields(self, option, value) -> list[str]:
        """A table by tiers: MAX_TIERS rows of three numbers (from, made, failed); a row left
        empty is no tier. Named ``<option>__<row>_<column>``, row by row."""
        tiers = [t for t in value if isinstance(t, list) and len(t) == 3] if isinstance(value, list) else []
        label = _t(option.label)
        columns = (
            ("from", pgettext("a tier of a table", "from"), option.choices[0], option.choices[-1]),
            ("made", gettext("made"), option.minimum, option.maximum),
            ("failed", gettext("failed"), option.minimum, option.maximum),
        )
        names = []
        for row in range(kinds.MAX_TIERS):
            tier = tiers[row] if row < len(tiers) else (None, None, None)
            for column, (key, title, low, high) in enumerate(columns):
                field = f"{option.name}__{row}_{key}"
                # The template shows one row of inputs per option: say in the input which it is.
                words = gettext("%(option)s, row %(row)s: %(column)s") % {
                    "option": label,
                    "row": row + 1,
                    "column": title,
                }
                self.fields[field] = WholeNumberField(
                    initial=tier[column],
                    label=words,
                    help_text=_help(option) if not names else "",
                    required=False,
                    min_value=low,
                    max_value=high,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "aria-label": words, "placeholder": title}),
                )
                names.append(field)
        return names

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
            raw = [cleaned.get(n) for n in names]
            if option.kind == kinds.TIERS:
                partial = _partial_tier(raw)
                if partial is not None:
                    self.add_error(
                        names[3 * (partial - 1)],
                        gettext("%(option)s: row %(row)s needs all three numbers (from, made, failed), or none.")
                        % {"option": _t(option.label), "row": partial},
                    )
                    continue
            value = self._value(option, raw)
            # scoring/ checks the value's shape (not a rule of the game): say so on the field.
            problem = option.check(value)
            if problem:
                message = gettext(problem) % option.limits()
                if option.kind == kinds.TIERS:  # its inputs have no label of their own on the page
                    message = gettext("%(option)s: %(problem)s.") % {"option": _t(option.label), "problem": message}
                self.add_error(names[0], message)
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
        if option.kind == kinds.TIERS:
            rows = [raw[i : i + 3] for i in range(0, len(raw), 3)]
            return [row for row in rows if row != [None, None, None]]
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


def _partial_tier(raw: list[Any]) -> int | None:
    """The 1-based number of the first tier row with some but not all of its three numbers."""
    for row in range(len(raw) // 3):
        filled = [v is not None for v in raw[3 * row : 3 * row + 3]]
        if any(filled) and not all(filled):
            return row + 1
    return None


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


class PublicLinkForm(forms.Form):
    """The public link's buttons: a new link (the old one stops working) or none."""

    action = forms.ChoiceField(choices=[("create", "create"), ("revoke", "revoke")], error_messages=STALE_FORM)

    @property
    def enabled(self) -> bool:
        return self.cleaned_data["action"] == "create"


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


class ReopenMeetingForm(ReasonForm):
    """An admin reopens a closed evening; the reason is shown on its history page."""

    label = _("Why is the evening reopened?")
    help = _("Kept in the evening's history, with your name and the time.")
    required = _("Say why the evening is reopened.")


class ReopenSeasonForm(ReasonForm):
    """An admin reopens a closed season; the reason is shown on its bill page."""

    label = _("Why is the season reopened?")
    help = _("Kept on the season's bill page, with your name and the time.")
    required = _("Say why the season is reopened.")


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
    if selectors.has_host_rounds(game):
        return _("After it, the round the host started is finished, then the evening ends.")
    return _("This game has no rounds: the clock ends no game. End the evening below the sheet when you stop.")


class EndTimeForm(forms.Form):
    """Set, change or clear (empty) the end time of an open evening."""

    end_time = end_time_field()

    def __init__(self, *args, game: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["end_time"].help_text = end_time_help(game)


class StartMeetingForm(forms.Form):
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
    players = SeatingField(required=False)
    teams = forms.Field(required=False, disabled=True)
    start_totals = forms.Field(required=False, disabled=True)

    MEETING_FIELDS = ("date", "end_time", "pennant_holder", "pennant_forgotten")
    SECTIONS = ("players", TEAMS, START_TOTALS)

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.league = league
        spec = get_game(league.game)
        self.team_game = TEAMS in spec.extra_fields
        # Race games may go on with a game left unfinished on an earlier evening.
        self.carry_game = START_TOTALS in spec.extra_fields
        self.active_players = list(league.players.filter(active=True).order_by("name"))
        self.fields["end_time"].help_text = end_time_help(league.game)
        self.fields["pennant_holder"].queryset = league.players.filter(active=True).order_by("name")
        if not selectors.has_pennant(league.game):
            # The pennant comes with penalty soli (league.md): only games that play them.
            del self.fields["pennant_holder"]
            del self.fields["pennant_forgotten"]
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

    def meeting_fields(self):
        """The fields the page lists under the seating (date, end time, pennant)."""
        return [self[name] for name in self.MEETING_FIELDS if name in self.fields]

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

    def clean_date(self):
        date = self.cleaned_data["date"]
        problem = services.meeting_date_problem(date)
        if problem:
            raise forms.ValidationError(problem)
        return date

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
        if data.get("pennant_forgotten") and not data.get("pennant_holder"):
            self.add_error("pennant_holder", gettext("Say who forgot the pennant."))
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
        by_player, by_team = {}, {}
        seated = {str(p.pk): p for p in self.seated}
        by_pk = {str(p.pk): p for p in self.active_players}
        for name in self.data:
            if not name.startswith("start_") or name == START_TOTALS:
                continue
            # Undeclared names too (a player of another league, or one no longer active):
            # what was typed for them is refused, never dropped unseen.
            raw = self.cleaned_data.get(name) if name in self.fields else self.data.get(name)
            raw = (raw or "").strip()
            if not raw:
                continue
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


# --- the hidden inputs of the hand forms ----------------------------------------------------


class HandEntryForm(forms.Form):
    """The hidden inputs of the hand-entry form, besides the hand itself (which its game's
    module reads): the number the phone was about to enter, and the key this rendering of
    the form got, so that a double tap or a re-sent POST enters the hand once."""

    expected_hand = WholeNumberField(min_value=1, required=False, error_messages=STALE_FORM)
    idempotency_key = forms.UUIDField(required=False, error_messages=STALE_FORM)
    # The version of the sheet the phone shows (views.meetings.sheet_version): when it is the
    # sheet as it stands, the answer appends the new hand's row instead of the whole sheet.
    sheet = forms.CharField(required=False, max_length=64)


class HandVersionForm(forms.Form):
    """The hidden input of the correction, delete and restore forms: the version of the hand
    the page showed, so that a write over someone else's newer one is refused."""

    version = WholeNumberField(min_value=1, error_messages=STALE_FORM)


# --- the bill at the end of a season (views/bill.py) --------------------------------------------

SEVERAL = "several"
# The engine's own labels (marked for translation in scoring/), default method first.
METHODS = [(key, _(label)) for key, label in sorted(BILL_METHODS.items(), key=lambda m: m[0] != DEFAULT_METHOD)]


# The amounts are read by AmountField in the page's language ("187,40" and "1.234,50" in
# German) and within the bounds of scoring/limits.py, so the engine's own checks agree with
# the form's. The link of a split bill carries them canonical ("187.40"): it opens the same
# bill in either language.
MAX_MONEY = Decimal(MAX_MONEY_CENTS) / 100

# A restaurant bill above 200 € a head is asked about before it is split. A club's evening
# out costs 25 to 80 € a head; the slip this catches is a decimal separator read as nothing
# ("187,40" taken for 18,740 € once, with no warning): it makes the bill a hundred times
# larger, and any bill above 2 € a head then passes the line. Per head, not for the whole
# bill, since a club of twenty spends what would be a typo for a club of four.
PLAUSIBLE_PER_HEAD = Decimal(200)


class BillForm(forms.Form):
    total = AmountField(
        label=_("The bill (€)"),
        min_value=Decimal("0.01"),
        max_value=MAX_MONEY,
        max_digits=9,
        decimal_places=2,
    )
    tip_percent = AmountField(
        label=_("Tip (%)"),
        min_value=0,
        max_value=100,
        max_digits=5,
        decimal_places=2,
        required=False,
    )
    method = forms.ChoiceField(
        label=_("How to split"), choices=METHODS, initial=DEFAULT_METHOD, widget=forms.RadioSelect
    )
    cents_per_point = AmountField(
        label=_("Cents per point"),
        min_value=0,
        max_value=MAX_CENTS_PER_POINT,
        max_digits=7,
        decimal_places=2,
        required=False,
        help_text=_("Only for “by points”. Lowered by itself if someone would get money back."),
    )
    paid_by = forms.ChoiceField(label=_("Who paid"), required=False)
    # The bill as read (canonical, "18740.00") when the checkbox "yes, that is right" is
    # ticked: a confirmation holds for that amount only, also in the shared link.
    confirm_total = forms.CharField(required=False)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        # The examples in the page's language: "zum Beispiel 187,40" in German.
        example = number_text(Decimal("187.40"), places=2)
        self.fields["total"].error_messages.update(
            {
                "required": gettext("Enter the bill, for example %(example)s.") % {"example": example},
                "invalid": gettext("Enter the bill as an amount, for example %(example)s.") % {"example": example},
                "min_value": gettext("The bill must be more than 0."),
                "max_decimal_places": gettext("At most two decimals (cents)."),
            }
        )
        self.fields["total"].widget.attrs["placeholder"] = example
        for name, sample in (("tip_percent", "10"), ("cents_per_point", "10")):
            self.fields[name].error_messages["invalid"] = gettext(
                "%(field)s: type a number, for example %(example)s."
            ) % {
                "field": self.fields[name].label,
                "example": number_text(Decimal(sample)),
            }
        self.fields["paid_by"].choices = [
            ("", gettext("Nobody yet")),
            *[(str(p.pk), p.name) for p in players],
            (SEVERAL, gettext("Several of us (amounts below)")),
        ]
        for p in players:
            self.fields[f"paid_{p.pk}"] = AmountField(
                label=p.name,
                min_value=0,
                max_value=MAX_MONEY,
                max_digits=9,
                decimal_places=2,
                required=False,
                error_messages={
                    "invalid": gettext("%(field)s: type the amount paid, for example %(example)s.")
                    % {"field": p.name, "example": example}
                },
            )
        # Set by clean() when the bill is above the plausible amount and not yet confirmed.
        self.confirm_amount = None

    def paid_fields(self):
        return [self[f"paid_{p.pk}"] for p in self.players]

    def clean(self):
        data = super().clean()
        if data.get("paid_by") == SEVERAL and not any(data.get(f"paid_{p.pk}") for p in self.players):
            self.add_error("paid_by", gettext("Enter how much each of you paid."))
        total = data.get("total")
        implausible = total is not None and self.players and total > PLAUSIBLE_PER_HEAD * len(self.players)
        if not implausible or data.get("confirm_total") != canonical(total, places=2):
            data["confirm_total"] = ""  # a confirmation of another amount confirms nothing
        if implausible and not data["confirm_total"]:
            each = total / len(self.players)
            self.confirm_amount = {"total": total, "each": each, "canonical": canonical(total, places=2)}
            self.add_error(
                "total",
                gettext(
                    "Read as %(total)s: that is %(each)s for each of %(players)s. "
                    "If that is right, tick “Yes, that is right”; else correct the amount."
                )
                % {"total": money_text(total), "each": money_text(each), "players": len(self.players)},
            )
        return data

    def bill_request(self, scores):
        """The split_bill request (calculate-api.md) for the cleaned data."""
        data = self.cleaned_data
        request = {"total": f"{data['total']:.2f}", "scores": scores, "method": data["method"]}
        if data["method"] == "per_point" and data.get("cents_per_point") is not None:
            request["cents_per_point"] = canonical(data["cents_per_point"])
        tip = data.get("tip_percent")
        if tip:
            request["tip_percent"] = canonical(tip)
        names = {str(p.pk): p.name for p in self.players}
        if data.get("paid_by") == SEVERAL:
            request["paid"] = {p.name: f"{data.get(f'paid_{p.pk}') or 0:.2f}" for p in self.players}
        elif data.get("paid_by"):
            request["paid_by"] = names[data["paid_by"]]
        return request

    def canonical_data(self):
        """The cleaned inputs as the link carries them: a decimal point, no grouping
        ("1234.50" whatever the page's language), only what was given."""
        data = self.cleaned_data
        query = {"total": canonical(data["total"], places=2)}
        for name in ("tip_percent", "cents_per_point"):
            if data.get(name) is not None:
                query[name] = canonical(data[name])
        query["method"] = data["method"]
        if data.get("paid_by"):
            query["paid_by"] = data["paid_by"]
        for p in self.players:
            if data.get(f"paid_{p.pk}") is not None:
                query[f"paid_{p.pk}"] = canonical(data[f"paid_{p.pk}"], places=2)
        if data.get("confirm_total"):
            query["confirm_total"] = data["confirm_total"]
        return query

    def query(self):
        """The inputs as a query string, so the result page can be shared and printed."""
        return urlencode(self.canonical_data())


# --- a league's data in (views/exchange.py) ----------------------------------------------------------


class ImportLeagueForm(NewLeagueForm):
    """A league export (JSON) to import as a new league, under a name and short name of its own."""

    file = forms.FileField(label=_("Export file (JSON)"))
    name = forms.CharField(
        label=_("Name of the new league"),
        max_length=League._meta.get_field("name").max_length,
        validators=[visible_name],
    )
    field_order = ["file", "name", "slug"]

    def clean_file(self):
        # Read as leagues/import_checks.py reads any export: its size, JSON, depth, NUL.
        upload = self.cleaned_data["file"]
        try:
            return import_checks.read_json(upload)
        except import_checks.ImportProblem as problem:
            raise forms.ValidationError([e["message"] for e in problem.errors]) from problem


class PlaysAsForm(forms.Form):
    """Whom the user plays as in a league: one of its players without an account, or nobody."""

    NOBODY = "nobody"

    player = forms.ChoiceField(label=_("You play as"), widget=forms.RadioSelect)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(p.pk), p.name) for p in players]
        self.fields["player"].choices = [*choices, (self.NOBODY, _("Nobody: I don't play"))]

    def player_id(self) -> int | None:
        """The chosen player's id, None for nobody (a valid form)."""
        value = self.cleaned_data["player"]
        return None if value == self.NOBODY else int(value)


# --- a paper season (leagues/paper_import.py) and API tokens (leagues/tokens.py) -------------

# A notebook's season is some kilobytes; the confirmation sends the text back in the form.
PAPER_MAX_BYTES = paper_reading.MAX_BYTES


class PaperImportForm(forms.Form):
    """A paper season as CSV: the file on the preview, its text (a hidden field) on the
    confirmation, so that what is confirmed is exactly what was previewed, checked again."""

    KINDS = [
        ("totals", _("Each player's total per evening")),
        ("hands", _("Every hand of each evening")),
    ]

    kind = forms.ChoiceField(label=_("What the file holds"), choices=KINDS, widget=forms.RadioSelect, initial="totals")
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(required=False, widget=forms.HiddenInput, strip=False)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is not None:
            if upload.size > PAPER_MAX_BYTES:
                self.add_error("file", gettext("The file is too large (at most 300 kB)."))
                return cleaned
            try:
                cleaned["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", gettext("Please save the file as CSV in UTF-8."))
                return cleaned
            cleaned["confirm"] = False  # a new file is always previewed first
        elif not cleaned.get("text"):
            self.add_error("file", gettext("Please choose a CSV file."))
        elif len(cleaned["text"].encode()) > PAPER_MAX_BYTES:
            self.add_error("file", gettext("The file is too large (at most 300 kB)."))
        return cleaned


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=_("What the token is for"),
        max_length=60,
        help_text=_("A name to tell your tokens apart, e.g. “scoring script”."),
    )
    # Days the token is valid for; "" for a token that lasts until it is revoked.
    expires = forms.TypedChoiceField(
        label=_("Valid for"),
        choices=[("30", _("30 days")), ("90", _("90 days")), ("365", _("a year")), ("", _("until revoked"))],
        coerce=int,
        empty_value=None,
        required=False,
        initial="90",
        help_text=_("A token that ends by itself cannot be used for long by someone who found it."),
    )

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(gettext("Please give the token a name."))
        return name
