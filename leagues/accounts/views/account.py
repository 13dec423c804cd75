"""Signing up, logging in and out, changing and resetting a password, the home page ("my
leagues") and joining a league by invite.

The password pages are Django's own views with our templates; each answers a form it
refuses with a 400, as every form of Kartenliga does.
"""

import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth import views as auth_views
from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from leagues import exceptions
from leagues.accounts import login_lockout, throttling
from leagues.accounts.forms import JoinForm, SignupForm
from leagues.clubs import selectors, services
from leagues.fields import game_label
from leagues.models import ROLE_RANK, Invite, Membership


class InvalidFormIs400:
    """A failed form is a 400 everywhere in Kartenliga, the forms of Django's auth views too."""

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class LoginView(InvalidFormIs400, auth_views.LoginView):
    redirect_authenticated_user = True

    def form_valid(self, form):
        # From now on this browser is one the name logs in with: a stranger's failed guesses
        # elsewhere or at the same address do not lock it out (leagues/accounts/login_lockout.py).
        return login_lockout.trust_browser(super().form_valid(form), form.get_user())


@require_http_methods(["GET", "POST"])
def signup(request):
    """A new person on his own: an account, logged in at once, then "create your league"."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:  # the login name was taken a moment ago
            form.add_error("username", _("A user with that username already exists."))
        else:
            # Through authenticate(), so that django-axes sees the request as it does a login.
            user = authenticate(
                request, username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
            if user is None:
                # Locked out: too many failed logins for this name from this address before
                # the name was taken. The account stands; django-axes's middleware answers
                # with the lockout page, which says how long to wait.
                return redirect("login")
            login(request, user)
            messages.success(request, _("Welcome to Kartenliga! Now create your league."))
            return login_lockout.trust_browser(redirect("league_create"), user)
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)


# Template names of our own: the Django admin's password pages keep theirs.
class PasswordChangeView(InvalidFormIs400, auth_views.PasswordChangeView):
    template_name = "registration/password_change.html"


class PasswordResetView(InvalidFormIs400, auth_views.PasswordResetView):
    # Plain text, in the language of the page the request came from.
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    template_name = "registration/password_reset.html"

    @property
    def extra_email_context(self):
        return {"days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)}

    def form_valid(self, form):
        # Counted whether or not an account has the address, so that the answer tells nobody
        # which addresses have one; counted in the database, so that every worker sees it.
        wait = throttling.over_rate("reset_mail_address", throttling.client_ip(self.request))
        if wait:
            message = _("Too many reset mails were asked for from your address.")
        else:
            wait = throttling.over_rate("reset_mail_account", form.cleaned_data["email"].casefold())
            message = _(
                "Reset mails for this address were asked for a short while ago: if it has an account, look in its mailbox."
            )
        if not wait:
            return super().form_valid(form)
        minutes = max(1, math.ceil(wait / 60))
        again = ngettext(
            "You can ask for another in %(minutes)s minute.", "You can ask for another in %(minutes)s minutes.", minutes
        ) % {"minutes": minutes}
        form.add_error(None, f"{message} {again}")
        response = self.render_to_response(self.get_context_data(form=form), status=429)
        response["Retry-After"] = str(wait)
        return response


class PasswordResetConfirmView(InvalidFormIs400, auth_views.PasswordResetConfirmView):
    template_name = "registration/password_reset_confirm.html"

    def form_valid(self, form):
        # Whoever reads the account's mail is its owner: the browser he sets the new password
        # in logs in even while strangers have the name locked (leagues/accounts/login_lockout.py).
        return login_lockout.trust_browser(super().form_valid(form), form.user)

    def dispatch(self, *args, **kwargs):
        response = super().dispatch(*args, **kwargs)
        if not self.validlink and response.status_code == 200:
            response.status_code = 400  # a link used already, expired or mistyped
        return response


def home(request):
    if not request.user.is_authenticated:
        return render(request, "accounts/landing.html")
    memberships = list(selectors.memberships_of(user=request.user))
    for membership in memberships:
        membership.game_label = game_label(membership.league.game)
    return render(request, "accounts/home.html", {"memberships": memberships})


# What a visitor of an unusable invite is told, and with which status: gone for good (410)
# when time or use ended it, a bad request (400) when the invite itself does not fit.
INVITE_PROBLEMS = {
    "expired": (410, gettext_lazy("This invite has expired. Ask the league's admin for a new link.")),
    "used": (410, gettext_lazy("This invite has already been used. Each link lets one person join.")),
    "revoked": (410, gettext_lazy("The league's admin has withdrawn this invite.")),
    "wrong_league": (400, gettext_lazy("This invite names a player of another league, so it cannot be used.")),
    "player_taken": (
        400,
        gettext_lazy("The player this invite is meant for has already joined with an account."),
    ),
}


def _invite_problem(request, invite, reason):
    status, message = INVITE_PROBLEMS[reason]
    return render(request, "accounts/invite.html", {"invite": invite, "problem": message}, status=status)


@require_http_methods(["GET", "POST"])
def accept_invite(request, token):
    invite = get_object_or_404(Invite.objects.select_related("league", "player", "created_by"), token=token)
    reason = services.invite_problem(invite)
    if reason:
        return _invite_problem(request, invite, reason)
    user = request.user
    membership = Membership.objects.filter(league=invite.league, user=user).first() if user.is_authenticated else None
    context = {"invite": invite, "membership": membership}
    if membership is not None and ROLE_RANK[membership.role] >= ROLE_RANK[invite.role]:
        # Nothing to gain: the invite stays open for the person it was meant for.
        context["already"] = True
        return render(request, "accounts/invite.html", context)
    context["needs_name"] = invite.player is None and not (
        user.is_authenticated and invite.league.players.filter(user=user).exists()
    )
    join = _join if user.is_authenticated else _sign_up_and_join
    response = join(request, invite, context)
    if response is not None:
        return response
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/invite.html", context, status=status)


def _sign_up_and_join(request, invite, context):
    """A visitor without an account signs up by the invite, and is in; None while the page
    is shown again (first, or with the form's errors)."""
    initial = {"display_name": invite.player.name} if invite.player else {}
    form = SignupForm(request.POST or None, league=invite.league, initial=initial)
    context["form"] = form
    context["login_url"] = f"{reverse('login')}?next={invite.get_absolute_url()}"
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        user = services.sign_up_by_invite(
            invite=invite,
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data["display_name"],
            email=form.cleaned_data["email"],
        )
    except exceptions.InviteUnusable as error:
        return _invite_problem(request, invite, error.reason)
    except exceptions.InvalidInput as error:
        _add_errors(form, error)
        return None
    except IntegrityError:  # the login name was taken a moment ago
        form.add_error("username", _("A user with that username already exists."))
        return None
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return _joined(request, invite)


def _join(request, invite, context):
    """A logged-in user joins by the invite (naming his player when the league has none of
    his); None while the page is shown again."""
    user = request.user
    initial = {"display_name": user.get_short_name() or user.get_username()}
    form = JoinForm(request.POST or None, initial=initial) if context["needs_name"] else None
    context["form"] = form
    if request.method != "POST" or (form is not None and not form.is_valid()):
        return None
    try:
        services.accept_invite(invite=invite, user=user, display_name=form.cleaned_data["display_name"] if form else "")
    except exceptions.InviteUnusable as error:
        return _invite_problem(request, invite, error.reason)
    except exceptions.InvalidInput as error:
        _add_errors(form, error, request)
        return None
    return _joined(request, invite)


def _add_errors(form, error, request=None):
    for item in error.errors:
        if form is None:
            messages.error(request, item["message"])
        else:
            form.add_error(item["field"] if item["field"] in form.fields else None, item["message"])


def _joined(request, invite):
    messages.success(request, _("Welcome to %(league)s!") % {"league": invite.league.name})
    return redirect(invite.league)


urlpatterns = [
    path("", home, name="home"),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/password/change/", PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="registration/password_changed.html"),
        name="password_change_done",
    ),
    path("accounts/password/reset/", PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="registration/password_reset_sent.html"),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(template_name="registration/password_reset_complete.html"),
        name="password_reset_complete",
    ),
    path("invite/<token:token>/", accept_invite, name="accept_invite"),
]
