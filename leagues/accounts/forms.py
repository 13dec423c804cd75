"""Forms of accounts: sign-up, joining by invite, API tokens."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.clubs.forms import clean_name_field
from leagues.models import League, Player

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
