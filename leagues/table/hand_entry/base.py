"""The base of every game's hand form: a Django form that reads a posted hand into the
payload the game's spec stores, and fills itself again from a stored hand.

A game's form (one per module under ``leagues.hand_entry``) declares its fields, adds those
that depend on who plays in ``add_fields`` (``add_player_fields`` for one per player, named
``<prefix>:<name>`` unless the game's template says otherwise), checks in ``clean`` only what
cannot even be read, and builds the hand in ``to_payload``. Every rule (who may bid, which
calls are allowed, sums) stays the engine's: it checks the hand when it is saved, and its
problems come back keyed by the payload's top-level fields. So the form's problems are keyed
the same way (``hand_errors``), and the templates show both in one place.

The fields here read what a phone posts: whole numbers in ASCII digits only
(``scoring.numbers.whole_number``), flags, several values of one name (chips).
"""

import copy

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from scoring.numbers import whole_number

# What a ticked box or a chip's hidden input posts; anything else (or nothing) is no.
TRUE_WORDS = frozenset({"1", "on", "true", "yes"})


class WholeNumberField(forms.Field):
    """A whole number typed in ASCII digits (scoring/numbers.py: "١٢٣" is not 123); blank is
    None. Not required unless asked: whether a number is needed often depends on the hand."""

    default_error_messages = {
        "invalid": gettext_lazy("“%(value)s” is not a whole number."),
        "required": gettext_lazy("Enter a number."),
    }

    def __init__(self, *, required=False, **kwargs):
        super().__init__(required=required, **kwargs)

    def to_python(self, value):
        text = value.strip() if isinstance(value, str) else "" if value is None else str(value)
        if not text:
            return None
        number = whole_number(text)
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid", params={"value": text})
        return number


def _digits_message(what):
    return gettext("“%(value)s” is not a whole number: enter the %(what)s in digits.").replace("%(what)s", str(what))


# A WholeNumberField's "invalid" message naming what is typed (``what``: "bid", "card
# points"), translated when shown: ``WholeNumberField(error_messages={"invalid":
# digits_message(gettext_lazy("bid"))})``. ``%(value)s`` stays for the field to fill.
digits_message = lazy(_digits_message, str)


class TextField(forms.CharField):
    """A chip's or a field's text, stripped; blank is "". Never required: a missing choice is
    the form's or the engine's to name, in the game's words."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)


class FlagField(forms.Field):
    """A box or a chip that is on or off: ``TRUE_WORDS`` are on (a hidden input posting "0"
    or "" is off, which a BooleanField would read as on)."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value):
        if isinstance(value, bool):
            return value
        return isinstance(value, str) and value.strip().lower() in TRUE_WORDS


class ListField(forms.Field):
    """Several values of one name (chips of checkboxes, the announcements in order), blanks
    dropped, in the order posted."""

    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = [value]
        return [item for item in value or () if isinstance(item, str) and item]


class HandForm(forms.Form):
    """A game's hand form. Built with ``players`` (names in seat order) and ``result`` (the
    replay of the meeting so far, the calculate response shape: ``result["next"]`` says who
    deals and who is active, ``result["rules"]`` the rules in force).

    Subclasses give ``to_payload`` and ``from_payload``; ``ERROR_FIELDS`` maps a form field to
    the payload field its problems are shown on, where the two names differ."""

    ERROR_FIELDS = {}

    def __init__(self, data=None, *, players, result, **kwargs):
        self.players = list(players)
        self.result = result
        self.next = result.get("next") or {}
        self.active = list(self.next.get("active") or self.players)
        self.rules = result.get("rules") or {}
        self.error_fields = dict(self.ERROR_FIELDS)
        self._hand_errors = {}
        kept = self.kept_fields(data if data is not None else {})
        if kept is not None:
            # Django copies every declared field (deep) for each form it builds: a
            # Doppelkopf hand reads a few of its 26, and copying all was a third of reading
            # the posted hand. Only those it reads are copied.
            self.base_fields = {name: field for name, field in type(self).base_fields.items() if name in kept}
        super().__init__(data, **kwargs)
        self.add_fields()

    def kept_fields(self, data):
        """The names of the declared fields this hand reads, from what was posted (``data``);
        None: all of them (the default)."""
        return None

    def add_fields(self):
        """Fields that depend on the players or the rules in force (none by default)."""

    def add_player_fields(self, prefix, field, *, names=None, separator=":", payload_field=None):
        """One copy of ``field`` per player (the active ones unless ``names``), named
        ``<prefix><separator><name>``; their problems are shown on ``payload_field``
        (``prefix`` unless given)."""
        for name in self.active if names is None else names:
            key = f"{prefix}{separator}{name}"
            self.fields[key] = copy.deepcopy(field)
            self.error_fields[key] = payload_field or prefix

    def player_values(self, prefix, *, names=None, separator=":"):
        """``{name: value}`` of the fields ``add_player_fields`` made (see ``value``)."""
        return {name: self.value(f"{prefix}{separator}{name}") for name in (self.active if names is None else names)}

    def value(self, name):
        """A field's value as read; for a field that could not be read, its text as posted
        (stripped), so that a form shown again with its problems still shows what was typed.
        A payload holding such text is never saved: it comes with a problem."""
        if self.errors is not None and name in getattr(self, "cleaned_data", {}):
            return self.cleaned_data[name]
        raw = self[name].data
        if isinstance(raw, str):
            return raw.strip() or None
        return raw

    def add_hand_error(self, payload_field, message):
        """A problem of the hand's ``payload_field`` that no single form field holds (the
        first one found is shown). The form is then not valid."""
        self._hand_errors.setdefault(payload_field, str(message))
        self.add_error(None, message)

    def hand_errors(self):
        """``{payload field: message}``: what could not be read, keyed as the engine keys
        its problems; one message a field, the first found."""
        errors = {}
        for name, messages in self.errors.items():
            if name == forms.forms.NON_FIELD_ERRORS:
                continue
            errors.setdefault(self.error_fields.get(name, name), messages[0])
        for field, message in self._hand_errors.items():
            errors.setdefault(field, message)
        return errors

    def to_payload(self):
        """The hand exactly as the game's spec stores it. With problems, the fields that
        could not be read keep their text (see ``value``)."""
        raise NotImplementedError

    @classmethod
    def from_payload(cls, payload):
        """The form's initial values (what its template reads as ``initial``) for correcting
        the stored hand ``payload``, or for showing a hand with problems again."""
        raise NotImplementedError

    @classmethod
    def payload_from_post(cls, post, *, players, result):
        """``(payload, errors)`` of a posted hand: the module contract the views use."""
        form = cls(post, players=players, result=result)
        form.is_valid()
        return form.to_payload(), form.hand_errors()
