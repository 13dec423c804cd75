"""Forms of a league: founding it, its rules, members, players, invites and public link."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from leagues.clubs.names import NameProblem, check_new_name, clean_name, visible_name
from leagues.fields import (
    STALE_FORM,
    WholeNumberField,
    available_games,
    game_label,
    installed_game,
    preset_choices,
    scoring_text,
)
from leagues.models import Combine, League, Player, Role
from scoring import options as kinds
from scoring.registry import GAME_MODULES, GameSpec

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
        adders = {
            kinds.BOOL: self._add_bool_field,
            kinds.INT: self._add_int_field,
            kinds.CHOICE: self._add_choice_field,
            kinds.MULTI: self._add_multi_field,
            kinds.INT_PAIR: self._add_pair_fields,
            kinds.MAPPING: self._add_mapping_fields,
            kinds.TIERS: self._add_tier_fields,
        }
        if option.kind not in adders:
            raise ValueError(f"unknown option kind {option.kind!r}")
        return adders[option.kind](option, value)

    @staticmethod
    def _common(option) -> dict[str, Any]:
        # scoring/ only marks its texts for translation: translate them here, per request.
        return {"label": scoring_text(option.label), "help_text": _help(option)}

    def _add_bool_field(self, option, value) -> list[str]:
        self.fields[option.name] = forms.BooleanField(required=False, initial=bool(value), **self._common(option))
        return [option.name]

    def _add_int_field(self, option, value) -> list[str]:
        self.fields[option.name] = WholeNumberField(
            required=not option.nullable,
            min_value=option.minimum,
            max_value=option.maximum,
            initial=value,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            **self._common(option),
        )
        return [option.name]

    def _add_choice_field(self, option, value) -> list[str]:
        self.fields[option.name] = forms.ChoiceField(
            choices=self._choices(option), initial=_key(value), required=not option.nullable, **self._common(option)
        )
        return [option.name]

    def _add_multi_field(self, option, value) -> list[str]:
        self.fields[option.name] = forms.MultipleChoiceField(
            choices=self._choices(option),
            initial=[_key(v) for v in value or ()],
            required=False,
            widget=forms.CheckboxSelectMultiple,
            **self._common(option),
        )
        return [option.name]

    def _add_mapping_fields(self, option, value) -> list[str]:
        names = []
        for choice in option.choices:
            field = f"{option.name}__{_key(choice)}"
            self.fields[field] = WholeNumberField(
                initial=(value or {}).get(choice),
                label=scoring_text(option.choice_labels.get(choice, str(choice))),
                required=not option.nullable,
                min_value=option.minimum,
                max_value=option.maximum,
            )
            names.append(field)
        return names

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
        label = scoring_text(option.label)
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
        choices = [(_key(c), scoring_text(option.choice_labels.get(c, str(c)))) for c in option.choices]
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
                        % {"option": scoring_text(option.label), "row": partial},
                    )
                    continue
            value = self._value(option, raw)
            # scoring/ checks the value's shape (not a rule of the game): say so on the field.
            problem = option.check(value)
            if problem:
                message = gettext(problem) % option.limits()
                if option.kind == kinds.TIERS:  # its inputs have no label of their own on the page
                    message = gettext("%(option)s: %(problem)s.") % {
                        "option": scoring_text(option.label),
                        "problem": message,
                    }
                self.add_error(names[0], message)
                continue
            self.rules[option.name] = value
        return cleaned

    @staticmethod
    def _value(option, raw: list[Any]) -> Any:
        read = _READ_VALUE.get(option.kind)
        return read(option, raw) if read else raw[0]

    def overrides(self) -> dict[str, Any]:
        """Only what differs from the preset: the league follows the preset for the rest."""
        return {name: value for name, value in self.rules.items() if value != self.preset.get(name)}

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
            label = _section_label(option, grouped)
            section = sections.setdefault(
                label, {"label": label, "rows": [], "labels": [], "changed": 0, "errors": False}
            )
            section["rows"].append(
                (
                    {"label": scoring_text(option.label), "help": _help(option), "kind": option.kind},
                    [self[n] for n in names],
                )
            )
            section["labels"].append(scoring_text(option.label))
            self._mark(section, option, names, errors, current)
        for section in sections.values():
            section["summary"] = ", ".join(section["labels"])
        return list(sections.values())

    def _mark(self, section, option, names, errors, current) -> None:
        """An option with an error opens its section; else it counts if it differs from the preset."""
        if any(n in errors for n in names):
            section["errors"] = True
        elif current is not None and current.get(option.name) != self.preset.get(option.name):
            section["changed"] += 1


def _section_label(option, grouped: bool) -> str:
    if option.group:
        return scoring_text(option.group)
    return gettext("Other") if grouped else gettext("All options")


def _read_choice(option, raw: list[Any]) -> Any:
    by_key = {_key(c): c for c in option.choices}
    return by_key.get(raw[0]) if raw[0] not in ("", None) else None


def _read_multi(option, raw: list[Any]) -> list[Any]:
    # In the order the game lists them, so equal selections compare equal.
    chosen = set(raw[0] or ())
    return [c for c in option.choices if _key(c) in chosen]


def _read_pair(option, raw: list[Any]) -> list[Any] | None:
    return None if raw == [None, None] else list(raw)


def _read_mapping(option, raw: list[Any]) -> dict[Any, Any] | None:
    if option.nullable and all(v is None for v in raw):
        return None
    return dict(zip(option.choices, raw, strict=True))


def _read_tiers(option, raw: list[Any]) -> list[list[Any]]:
    rows = [raw[i : i + 3] for i in range(0, len(raw), 3)]
    return [row for row in rows if row != [None, None, None]]


# A rule's value from its fields' cleaned data, by the option's kind (the rest: the one field's).
_READ_VALUE = {
    kinds.CHOICE: _read_choice,
    kinds.MULTI: _read_multi,
    kinds.INT_PAIR: _read_pair,
    kinds.MAPPING: _read_mapping,
    kinds.TIERS: _read_tiers,
}


def _partial_tier(raw: list[Any]) -> int | None:
    """The 1-based number of the first tier row with some but not all of its three numbers."""
    for row in range(len(raw) // 3):
        filled = [v is not None for v in raw[3 * row : 3 * row + 3]]
        if any(filled) and not all(filled):
            return row + 1
    return None


def _help(option) -> str:
    """The option's help, with its range when it holds numbers (scoring/options.py)."""
    text = scoring_text(option.help)
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
    """A name typed into a form, cleaned by leagues/clubs/names.py, or the field's error."""
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


class TablesForm(forms.Form):
    """How the tables of a club night make one evening's standings (``League.combine_tables``,
    ``scoring.club_night``): the "Several tables" section of the house rules."""

    combine_tables = forms.ChoiceField(
        label=_("Tables combined by"),
        choices=Combine.choices,
        widget=forms.RadioSelect,
        help_text=_(
            "When an evening is played at several tables. Points as scored: every table's points in one list. "
            "Points per game, counted over the night's average number of games: so a table that played more games "
            "weighs no more. Placing at the table: a "
            "point for each player at one's table who finished behind, half a point for each one level."
        ),
    )

    def __init__(self, *args, league: League, **kwargs):
        kwargs.setdefault("prefix", "night")
        kwargs.setdefault("initial", {"combine_tables": league.combine_tables})
        super().__init__(*args, **kwargs)


class PublicLinkForm(forms.Form):
    """The public link's buttons: a new link (the old one stops working) or none."""

    action = forms.ChoiceField(choices=[("create", "create"), ("revoke", "revoke")], error_messages=STALE_FORM)

    @property
    def enabled(self) -> bool:
        return self.cleaned_data["action"] == "create"
