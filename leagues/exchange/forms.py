"""Forms of a league's data in: a league file, whom the importer plays as, a paper season."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.clubs.forms import NewLeagueForm
from leagues.clubs.names import visible_name
from leagues.exchange import import_checks, paper_reading
from leagues.models import League

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
        # Read as leagues/exchange/import_checks.py reads any export: its size, JSON, depth, NUL.
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


# --- a paper season (leagues/exchange/paper_import.py) and API tokens (leagues/accounts/tokens.py) -------------

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
