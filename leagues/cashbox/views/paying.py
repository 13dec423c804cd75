"""A member's bank account in a league (his own settings there) and paying by scan: a transfer
to a member as an EPC QR code. An IBAN is shown only where selectors.iban_visible_to allows
it; the code's image answers 403 to anyone else."""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from leagues.cashbox import epc, selectors, services
from leagues.cashbox.forms import MAX_MONEY, BankAccountForm
from leagues.models import Player
from leagues.permissions import league_for
from scoring.numbers import decimal_number


@login_required
@require_http_methods(["GET", "POST"])
def bank_account(request, slug):
    """The member's own account for this league: store, change or remove it."""
    league, membership = league_for(user=request.user, slug=slug)
    if membership.pk is None:
        raise Http404  # a superuser who is no member has no account to keep here
    account = selectors.bank_account_of(user=request.user, league=league)
    if account:
        form = BankAccountForm(initial={"holder": account.holder, "iban": account.iban})
    else:  # most accounts are in the name the member plays under
        form = BankAccountForm(initial={"holder": selectors.player_name_of(user=request.user, league=league)})
    status = 200
    if request.method == "POST" and request.POST.get("action") == "remove":
        services.remove_bank_account(membership=membership)
        messages.success(request, _("Your IBAN is removed from this league."))
        return redirect("bank_account", slug=league.slug)
    if request.method == "POST":
        form = BankAccountForm(request.POST)
        if form.is_valid():
            services.save_bank_account(
                membership=membership, iban=form.cleaned_data["iban"], holder=form.cleaned_data["holder"]
            )
            messages.success(request, _("Your IBAN is saved. The members of this league who owe you money see it."))
            return redirect("bank_account", slug=league.slug)
        status = 400
    context = {"league": league, "form": form, "account": account}
    return render(request, "cashbox/bank_account.html", context, status=status)


class BadTransfer(Exception):
    """A transfer's query names no amount or an evening or season the league has not."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field
        self.message = message


def _transfer_inputs(request, league):
    """(amount, meeting, season) of the query: ``amount`` canonical ("12.30"), ``meeting`` an
    evening's id, ``season`` a season's number (both optional)."""
    text = request.GET.get("amount", "")
    number = decimal_number(text, places=2) if text.isascii() and len(text) <= 12 else None
    amount = None if number is None else Decimal(number.numerator) / Decimal(number.denominator)
    if amount is None or not Decimal("0.01") <= amount <= MAX_MONEY:
        raise BadTransfer("amount", _("Amount: an amount in euros from 0.01 to 1000000.00, like 12.30."))
    meeting = season = None
    if request.GET.get("meeting"):
        meeting = league.meetings.filter(pk=_whole(request, "meeting")).first()
        if meeting is None:
            raise BadTransfer("meeting", _("Evening: this league has no such evening."))
    if request.GET.get("season"):
        season = league.seasons.filter(number=_whole(request, "season")).first()
        if season is None:
            raise BadTransfer("season", _("Season: this league has no such season."))
    return amount, meeting, season


def _whole(request, key):
    text = request.GET.get(key, "")
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        label = _("Evening") if key == "meeting" else _("Season")
        raise BadTransfer(key, _("%(field)s: a whole number.") % {"field": label})
    return int(text)


def _payee(request, slug, player_id):
    """The league, the payee and the transfer, and the account if the viewer may see it."""
    league, _membership = league_for(user=request.user, slug=slug)
    player = get_object_or_404(Player.objects.select_related("user"), league=league, pk=player_id)
    amount, meeting, season = _transfer_inputs(request, league)
    visible = selectors.iban_visible_to(viewer=request.user, owner=player.user, league=league)
    account = selectors.bank_account_of(user=player.user, league=league) if visible else None
    transfer = None
    if account is not None:
        text = epc.reference(league=league, meeting=meeting, season=season)
        transfer = epc.Transfer(name=account.holder, iban=account.iban, amount=amount, text=text)
    return league, player, amount, transfer, visible


@login_required
@require_GET
def pay(request, slug, player_id):
    """A transfer to ``player``: his name, IBAN, the amount and reference, and the code to
    scan; without an IBAN (or none the viewer may see) the page says so."""
    try:
        league, player, amount, transfer, visible = _payee(request, slug, player_id)
    except BadTransfer as bad:
        return render(request, "cashbox/pay.html", {"problem": bad.message, "field": bad.field}, status=400)
    context = {
        "league": league,
        "player": player,
        "amount": amount,
        "transfer": transfer,
        # A player without an account has no IBAN to hide: the page says he stored none.
        "hidden": not visible and player.user is not None,
        "iban": epc.formatted(transfer.iban) if transfer else None,
        "qr_url": f"{reverse('pay_qr', kwargs={'slug': slug, 'player_id': player_id})}?{request.GET.urlencode()}",
    }
    response = render(request, "cashbox/pay.html", context)
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def pay_qr(request, slug, player_id):
    """The transfer's EPC QR code as SVG, for whoever may see the payee's IBAN (else 403;
    a payee without an IBAN: 404)."""
    try:
        _league, _player, _amount, transfer, visible = _payee(request, slug, player_id)
    except BadTransfer as bad:
        return HttpResponse(bad.message, status=400, content_type="text/plain; charset=utf-8")
    if transfer is None:
        if not visible:
            raise PermissionDenied
        raise Http404
    response = HttpResponse(epc.qr_svg(transfer), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


urlpatterns = [
    path("l/<slug:slug>/bank-account/", bank_account, name="bank_account"),
    path("l/<slug:slug>/pay/<int:player_id>/", pay, name="pay_by_scan"),
    path("l/<slug:slug>/pay/<int:player_id>/qr.svg", pay_qr, name="pay_qr"),
]
