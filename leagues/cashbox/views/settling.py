"""Settling up an evening: the "Settling up" card of a closed evening's page (its figures, the
payments, what is open from earlier evenings) and ticking a payment as paid.

Scorekeepers and admins tick; a refund out of the cashbox (a correction's) is money out, an
admin's, as the cashbox's other money out. The pay-by-scan link goes to the payer alone.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import exceptions
from leagues.cashbox import services, settlement
from leagues.cashbox.rules import rate_text
from leagues.cashbox.selectors import to_euros
from leagues.models import PaidHow, Role
from leagues.permissions import meeting_for
from scoring.money import POINTS, REASONS


def settle_context(request, meeting, membership) -> dict:
    """What the evening page's card shows (nothing where the league plays for no money)."""
    if not meeting.money_rules and not meeting.league.money_rules:
        return {"money": None, "money_before": []}
    evening, before = settlement.evening_and_before(meeting=meeting)
    return {
        "money": evening,
        "money_before": before,
        "money_figures": _figures(evening) if evening else None,
        "can_tick": membership.allows(Role.SCOREKEEPER),
        "can_pay_out": membership.allows(Role.ADMIN),
        "paid_how": PaidHow.choices,
        "scan": _scan_links(request, meeting, [*(evening.open if evening else ()), *before]),
    }


def _figures(evening) -> dict:
    """The figures that led to the payments: each player's total and net, the rate, the lines."""
    nets = evening.settlement.nets
    rows = [
        {"name": p.name, "total": evening.totals[p.name], "net": to_euros(nets.get(p.name, 0))} for p in evening.players
    ]
    lines = [
        {
            "payer": line.payer,
            "payee": line.payee,
            "euros": to_euros(line.cents),
            "reason": _(REASONS.get(line.reason, line.reason)),
        }
        for line in evening.settlement.lines
        if line.reason != POINTS or evening.rules["per_point"] != "between_players"
    ]
    rate = rate_text(evening.rules["rate"]) if evening.rules["per_point"] != "off" else None
    return {"rows": rows, "rate": rate, "lines": lines, "cashbox": to_euros(evening.settlement.cashbox)}


def _scan_links(request, meeting, lines) -> dict:
    """The pay-by-scan link of each open transfer to a player that the viewer himself owes."""
    links = {}
    for line in lines:
        if line.payee is None or line.payer is None or line.payer.user_id != request.user.pk:
            continue
        query = urlencode({"amount": f"{line.euros:.2f}", "meeting": line.meeting.pk})
        url = reverse("pay_by_scan", kwargs={"slug": meeting.league.slug, "player_id": line.payee.pk})
        links[(line.meeting.pk, line.key)] = f"{url}?{query}"
    return links


@login_required
@require_POST
def tick(request, slug, pk):
    """Tick one open payment of the evening as paid."""
    meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER)
    key = request.POST.get("payment", "")
    if key.startswith("box-") and not membership.allows(Role.ADMIN):
        raise PermissionDenied  # money out of the cashbox is an admin's to record
    try:
        services.tick_payment(meeting=meeting, key=key, paid_how=request.POST.get("paid_how", ""), user=request.user)
    except exceptions.InvalidInput as error:
        for item in error.errors:
            messages.error(request, item["message"])
        response = redirect(reverse("meeting", kwargs={"slug": slug, "pk": pk}) + "#settling")
        response.status_code = 303
        return response
    messages.success(request, _("Ticked as paid."))
    return redirect(reverse("meeting", kwargs={"slug": slug, "pk": pk}) + "#settling")


urlpatterns = [
    path("l/<slug:slug>/m/<int:pk>/settle/tick/", tick, name="settle_tick"),
]
