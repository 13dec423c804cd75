"""The cashbox's ledger page: every member reads it; scorekeepers and admins record money in,
admins money out, counter-entries and counts (selectors.role_to_record). A form with a
problem is shown again on the page with a 400 and its message at its field."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from leagues.cashbox import selectors, services
from leagues.cashbox.forms import CounterForm, CountForm, EntryForm
from leagues.exceptions import InvalidInput
from leagues.models import MONEY_OUT, Role
from leagues.permissions import league_for


def _page(request, league, membership, *, status=200, **forms):
    """The ledger with the forms the member may use (those given: as posted)."""
    seasons = list(league.seasons.order_by("-number"))
    is_admin = membership.allows(Role.ADMIN)
    context = {
        "league": league,
        "membership": membership,
        "ledger": selectors.ledger(league=league),
        "is_admin": is_admin,
        "entry_form": forms.get("entry_form")
        or (EntryForm(membership=membership, seasons=seasons) if membership.allows(Role.SCOREKEEPER) else None),
        "count_form": forms.get("count_form") or (CountForm() if is_admin else None),
        "counter_form": forms.get("counter_form") or (CounterForm() if is_admin else None),
        "counter_of": forms.get("counter_of"),
        "bank_account": selectors.bank_account_of(user=request.user, league=league),
    }
    return render(request, "cashbox/ledger.html", context, status=status)


def _put_errors(form, error: InvalidInput):
    for problem in error.errors:
        field = problem["field"] if problem["field"] in form.fields else None
        form.add_error(field, problem["message"])


def _back(league):
    return redirect(reverse("cashbox", kwargs={"slug": league.slug}) + "#ledger")


@login_required
@require_GET
def cashbox(request, slug):
    league, membership = league_for(user=request.user, slug=slug)
    return _page(request, league, membership)


@login_required
@require_POST
def cashbox_entry(request, slug):
    """Record an entry; the kind decides the role it takes (money out: an admin)."""
    league, membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
    if request.POST.get("kind") in MONEY_OUT and not membership.allows(Role.ADMIN):
        raise PermissionDenied
    seasons = list(league.seasons.order_by("-number"))
    form = EntryForm(request.POST, membership=membership, seasons=seasons)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.record_entry(
                league=league,
                kind=data["kind"],
                cents=services.cents_of(data["amount"]),
                note=data["note"],
                season=form.chosen_season(),
                user=request.user,
            )
        except InvalidInput as error:
            _put_errors(form, error)
        else:
            messages.success(request, _("The entry is recorded."))
            return _back(league)
    return _page(request, league, membership, status=400, entry_form=form)


@login_required
@require_POST
def cashbox_counter(request, slug, pk):
    """Undo an entry by a counter-entry (an admin's)."""
    league, membership = league_for(user=request.user, slug=slug, role=Role.ADMIN)
    if not league.cashbox_entries.filter(pk=pk).exists():
        raise Http404
    form = CounterForm(request.POST)
    if form.is_valid():
        try:
            services.counter_entry(league=league, entry_id=pk, note=form.cleaned_data["note"], user=request.user)
        except InvalidInput as error:
            _put_errors(form, error)
        else:
            messages.success(request, _("The entry is undone by a counter-entry."))
            return _back(league)
    return _page(request, league, membership, status=400, counter_form=form, counter_of=pk)


@login_required
@require_POST
def cashbox_count(request, slug):
    """Record the cash counted (an admin's)."""
    league, membership = league_for(user=request.user, slug=slug, role=Role.ADMIN)
    form = CountForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.record_count(
                league=league,
                cents=services.cents_of(data["amount"]),
                counted_on=data["counted_on"],
                note=data["note"],
                user=request.user,
            )
        except InvalidInput as error:
            _put_errors(form, error)
        else:
            messages.success(request, _("The count is recorded."))
            return _back(league)
    return _page(request, league, membership, status=400, count_form=form)


urlpatterns = [
    path("l/<slug:slug>/cashbox/", cashbox, name="cashbox"),
    path("l/<slug:slug>/cashbox/entries/", cashbox_entry, name="cashbox_entry"),
    path("l/<slug:slug>/cashbox/entries/<int:pk>/counter/", cashbox_counter, name="cashbox_counter"),
    path("l/<slug:slug>/cashbox/counts/", cashbox_count, name="cashbox_count"),
]
