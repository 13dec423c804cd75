"""The restaurant bill at the end of a season (league.md, "End of a season").

Two steps. "See the split" is a link with the inputs in its query string: it shows the split
without storing it (to look at, or to share around the table), and says what saving closes:
the season and each of its evenings still open, with its state. "Save" posts the same inputs
with the digest of the split shown (services.bill_digest): services.settle_bill stores it only
if it is still that split, and not while an evening is in the middle of a round (saving ends
the evening). The stored bill is the page itself, for every member, from then on. The money
is scoring.bill.split_bill's: this module only gathers the inputs and shows its answer.
"""

import dataclasses
from decimal import Decimal
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues import exceptions, games
from leagues.cashbox import selectors as cashbox
from leagues.models import Role, Season
from leagues.money import canonical, money_text, number_text
from leagues.permissions import league_for
from leagues.seasons import bill_page, selectors, services
from leagues.seasons.forms import METHODS, SEVERAL, BillForm
from leagues.table import sharing
from scoring.errors import ScoringError

# Engine fields (calculate-api.md) -> the form field that carries the message.
ENGINE_FIELDS = {
    "total": "total",
    "tip_percent": "tip_percent",
    "method": "method",
    "cents_per_point": "cents_per_point",
    "paid_by": "paid_by",
    "paid": "paid_by",
    "from_cashbox": "from_cashbox",
}


def _split(form, scores):
    """split_bill's answer, or None with its problems put on the form's fields."""
    try:
        return services.split_season_bill(request=form.bill_request(scores))
    except ScoringError as error:
        for problem in error.problems:
            form.add_error(ENGINE_FIELDS.get(problem.field), _page_message(problem))
        return None


def _page_message(problem):
    """The engine's message, its amounts of money written as the page's language writes
    them ("100,00 €" in German): the engine writes them canonical ("100.00") for the API."""
    if problem.field in ("paid", "from_cashbox"):
        amounts = {k: money_text(v) for k, v in problem.params.items() if k in ("paid", "total")}
        problem = dataclasses.replace(problem, params={**problem.params, **amounts})
    return problem.render(translate=_)


def _bill_inputs(form):
    """The split_bill request of a valid form, without the scores (services.settle_bill reads
    them under the season's lock)."""
    request = form.bill_request({})
    del request["scores"]
    return request


@require_http_methods(["GET", "POST"])
@login_required
def season_bill(request, slug, number):
    league, membership = league_for(user=request.user, slug=slug)
    season = get_object_or_404(Season, league=league, number=number)
    season.league = league
    stored = season.bills.current().select_related("settled_by", "paid_by", "chooser").first()
    # The first bill is stored by a scorekeeper; changing a stored one (what people paid) is
    # an admin's.
    may_edit = membership.allows(Role.ADMIN if stored else Role.SCOREKEEPER)
    if request.method == "POST" and not may_edit:
        raise PermissionDenied
    context = _context(request, season, membership, stored, may_edit)
    if season.closed_on is None:
        context["not_hosted"] = selectors.not_hosted_yet(season=season)
        return render(request, "bill/bill.html", context, status=400 if request.method == "POST" else 200)
    if not context["table"]:
        raise Http404  # a closed season without a single hand: nothing to split

    data = request.POST if request.method == "POST" else (request.GET if "total" in request.GET else None)
    initial = _stored_initial(stored) if stored else {"method": "per_point", "cents_per_point": 10, "tip_percent": 0}
    available = cashbox.to_euros(cashbox.available_for_bill(season=season))
    form = BillForm(data, players=[row.player for row in context["table"]], initial=initial, cashbox=available)
    context["cashbox_available"] = available
    context["form"] = form
    if data is None:
        return render(request, "bill/bill.html", context)
    result = _split(form, context["scores"]) if form.is_valid() else None
    if result is None:
        return render(request, "bill/bill.html", context, status=400)
    if request.method == "POST":
        return _save(request, season, form, context)
    return _show_split(request, form, result, context)


def _context(request, season, membership, stored, may_edit):
    league = season.league
    table = selectors.season_table(season=season)
    race = games.is_race_game(league.game)
    scores = selectors.bill_scores(table=table, race=race)
    context = {
        "league": league,
        "season": season,
        "table": table,
        "race": race,
        "scores": scores,
        "may_edit": may_edit,
        "is_admin": membership.allows(Role.ADMIN),
        "chooser": selectors.restaurant_chooser(table=table, race=race),
        "result": None,
        "stored": stored_bill(stored, scores) if stored else None,
        "page_url": request.build_absolute_uri(request.path),
        "reopenings": [
            (r, bill_page.known_as(league, r.reopened_by, r.reopened_by_name))
            for r in season.reopenings.select_related("reopened_by")
        ],
    }
    if stored:
        context["stored"]["transfers"] = _pay_links(request.user, season, stored.transfers)
        context["saved_by"] = bill_page.known_as(league, stored.settled_by, stored.settled_by_name)
        context["stored_share"] = sharing.bill(
            request, league=league, season=season, shown=context["stored"], race=race, url=context["page_url"]
        )
    if stored and context["stored"]["changed"] and context["is_admin"]:
        context["resplit_inputs"] = _stored_inputs(stored, scores, context["stored"].get("now_result"))
    return context


def _pay_links(user, season, transfers):
    """The stored bill's transfers, those the viewer owes with a link to pay by scan (the
    page says there whether the payee stored an IBAN)."""
    league = season.league
    players = {p.name: p for p in league.players.all()}
    me = next((p for p in players.values() if p.user_id == user.pk), None)
    shown = []
    for transfer in transfers:
        payee = players.get(transfer["to"])
        if me is not None and transfer["from"] == me.name and payee is not None:
            query = urlencode({"amount": transfer["amount"], "season": season.number})
            url = reverse("pay_by_scan", kwargs={"slug": league.slug, "player_id": payee.pk})
            transfer = {**transfer, "pay_url": f"{url}?{query}"}
        shown.append(transfer)
    return shown


def _show_split(request, form, result, context, *, status=200, notice=None):
    """The split of a valid form, not stored, with what saving it closes and (for whoever may
    save it) the inputs to save exactly this split; the form below it shows the inputs as
    the page's language writes them, ready to be changed."""
    context["result"] = _result_rows(result, context["table"], context["scores"], form)
    context["share_url"] = request.build_absolute_uri(f"{request.path}?{form.query()}")
    context["result_share"] = sharing.bill(
        request,
        league=context["league"],
        season=context["season"],
        shown=context["result"],
        race=context["race"],
        url=context["share_url"],
        ident="share-split",
    )
    context["notice"] = notice
    # What saving closes is shown with a split, to whoever may save it: each evening still
    # open is replayed for its round.
    if "closes" not in context:
        context["closes"] = bill_page.open_evenings(context["season"]) if context["may_edit"] else []
    context["save_problems"] = [e.problem for e in context["closes"] if e.problem]
    if context["may_edit"] and not context["save_problems"]:
        seen = services.bill_digest(context["scores"], result)
        context["save_inputs"] = [*form.canonical_data().items(), ("seen", seen)]
    context["form"] = BillForm(players=form.players, initial=_shown(form))
    return render(request, "bill/bill.html", context, status=status)


def _save(request, season, form, context):
    """Store the split that was shown ("Save"); else show it again, saying why not."""
    if form.cleaned_data.get("from_cashbox") and not context["is_admin"]:
        form.add_error("from_cashbox", _("From the cashbox: only an admin takes money out of the cashbox."))
        return render(request, "bill/bill.html", context, status=403)
    seen = request.POST.get("seen", "")
    try:
        services.settle_bill(season=season, bill=_bill_inputs(form), user=request.user, seen=seen)
    except exceptions.MidRound:
        context["closes"] = bill_page.open_evenings(season)
        return _show_split(request, form, _split(form, context["scores"]), context, status=409)
    except exceptions.SplitChanged:
        # The standings may have changed since the page was read: split by today's.
        table = selectors.season_table(season=season)
        context.update(table=table, scores=selectors.bill_scores(table=table, race=context["race"]))
        result = _split(form, context["scores"])
        if result is None:
            return render(request, "bill/bill.html", context, status=409)
        notice = (
            _(
                "The standings have changed since you looked: this is the split by today's standings. Look at it, then save it."
            )
            if seen
            else _("Look at the split below, then save it.")
        )
        return _show_split(request, form, result, context, status=409, notice=notice)
    except exceptions.InvalidInput as error:
        for problem in error.errors:
            form.add_error(ENGINE_FIELDS.get(problem["field"]), problem["message"])
        return render(request, "bill/bill.html", context, status=400)
    messages.success(request, _("The bill is saved, and the season is closed."))
    # Post/redirect/get: the stored bill is the page itself, for everyone in the league.
    return HttpResponseRedirect(request.path, status=303)


def _stored_initial(stored):
    """A stored bill's inputs as initial values of the form (to change it)."""
    initial = {"method": stored.method, "total": stored.total}
    if stored.from_cashbox:
        initial["from_cashbox"] = stored.from_cashbox
    if stored.tip_percent is not None:
        initial["tip_percent"] = stored.tip_percent
    if stored.cents_per_point is not None:
        initial["cents_per_point"] = stored.cents_per_point
    if stored.paid_by_id:
        initial["paid_by"] = str(stored.paid_by_id)
    elif stored.paid:
        initial["paid_by"] = SEVERAL
        names = {p.name: p.pk for p in stored.season.league.players.all()}
        initial.update({f"paid_{names[n]}": Decimal(v) for n, v in stored.paid.items() if n in names})
    shown = {
        k: (number_text(v, places=2 if k in ("total", "from_cashbox") else None) if isinstance(v, Decimal) else v)
        for k, v in initial.items()
    }
    return shown


def _stored_inputs(stored, scores, result):
    """A stored bill's inputs as the form's fields carry them canonical (as in a link), to
    save the same bill again by today's standings; with the digest of that split, which the
    page shows beside the stored one."""
    inputs = [("total", canonical(stored.total, places=2)), ("method", stored.method)]
    if stored.tip_percent is not None:
        inputs.append(("tip_percent", canonical(stored.tip_percent)))
    if stored.cents_per_point is not None:
        inputs.append(("cents_per_point", canonical(stored.cents_per_point)))
    if stored.from_cashbox:
        inputs.append(("from_cashbox", canonical(stored.from_cashbox, places=2)))
    names = {p.name: p.pk for p in stored.season.league.players.all()}
    if stored.paid_by_id:
        inputs.append(("paid_by", str(stored.paid_by_id)))
    elif stored.paid:
        inputs.append(("paid_by", SEVERAL))
        inputs += [(f"paid_{names[n]}", canonical(Decimal(v), places=2)) for n, v in stored.paid.items() if n in names]
    # It was confirmed when it was saved.
    inputs.append(("confirm_total", canonical(stored.total, places=2)))
    if result is not None:
        inputs.append(("seen", services.bill_digest(scores, result)))
    return inputs


def _ranked(scores):
    """(name, rank, score) in the stored order; equal scores share a place."""
    rows, rank, previous = [], 0, None
    for i, (name, score) in enumerate(scores.items(), start=1):
        if score != previous:
            rank, previous = i, score
        rows.append((name, rank, score))
    return rows


def stored_bill(stored, scores):
    """What the page shows of a stored bill, and, when the standings changed since (an admin
    reopened the season), the same bill split by today's standings beside it."""
    paid = stored.paid or {}
    cents = (stored.rate * 100).normalize() if stored.rate is not None else None
    view = {
        "record": stored,
        "bill": stored.total,
        "total": stored.total_with_tip,
        "from_cashbox": stored.from_cashbox,
        "rest": stored.total_with_tip - stored.from_cashbox,
        "rows": [
            {
                "name": name,
                "rank": rank,
                "score": score,
                "share": Decimal(stored.shares[name]),
                "paid": Decimal(paid[name]) if paid.get(name) else None,
            }
            for name, rank, score in _ranked(stored.score_map())
        ],
        "transfers": stored.transfers,
        "method": dict(METHODS).get(stored.method, stored.method),
        "cents_per_point": cents,
        "rate_lowered": cents is not None and stored.cents_per_point is not None and cents < stored.cents_per_point,
        "tip_percent": stored.tip_percent,
        "changed": stored.score_map() != scores,
    }
    if view["changed"]:
        view["now"], view["now_problem"] = _split_again(stored, scores)
        view["now_result"] = view["now"] and view["now"].pop("result")
    return view


def _split_again(stored, scores):
    """The stored bill's inputs split by today's standings: (rows, None) or (None, why not)."""
    try:
        result = services.split_season_bill(request={**services.stored_bill_request(stored), "scores": scores})
    except ScoringError as error:
        return None, " ".join(_page_message(p) for p in error.problems)
    old = stored.shares
    rows = []
    for name, rank, score in _ranked(scores):
        share = Decimal(result["shares"][name])
        before = Decimal(old[name]) if name in old else None
        rows.append(
            {
                "name": name,
                "rank": rank,
                "score": score,
                "score_before": stored.score_map().get(name),
                "share_before": before,
                "share": share,
                "difference": share - before if before is not None else None,
            }
        )
    transfers = result.get("transfers") or []
    return {"rows": rows, "total": Decimal(result["total"]), "transfers": transfers, "result": result}, None


def _shown(form):
    """A valid form's inputs as initial values in the page's language."""
    data = form.cleaned_data
    shown = {"method": data["method"], "paid_by": data.get("paid_by") or "", "confirm_total": data["confirm_total"]}
    for name, places in (("total", 2), ("tip_percent", None), ("cents_per_point", None), ("from_cashbox", 2)):
        if data.get(name) is not None:
            shown[name] = number_text(data[name], places=places)
    for p in form.players:
        if data.get(f"paid_{p.pk}") is not None:
            shown[f"paid_{p.pk}"] = number_text(data[f"paid_{p.pk}"], places=2)
    return shown


def _result_rows(result, table, scores, form):
    paid = result.get("paid") or {}
    data = form.cleaned_data
    if data.get("paid_by") == SEVERAL:
        paid = {p.name: data.get(f"paid_{p.pk}") or Decimal(0) for p in form.players}
    elif data.get("paid_by"):
        payer = next(p.name for p in form.players if str(p.pk) == data["paid_by"])
        paid = {payer: Decimal(result.get("rest", result["total"]))}
    rows = [
        {
            "name": row.player.name,
            "rank": row.rank,
            "score": scores[row.player.name],
            "share": result["shares"][row.player.name],
            "paid": paid.get(row.player.name),
        }
        for row in table
    ]
    rate = result.get("rate")
    cents = (Decimal(rate) * 100).normalize() if rate is not None else None
    return {
        "total": result["total"],
        "from_cashbox": Decimal(result.get("from_cashbox") or 0),
        "rest": Decimal(result.get("rest", result["total"])),
        "rows": rows,
        "transfers": result.get("transfers") or [],
        "chooses_restaurant": result.get("chooses_restaurant"),
        "method": dict(METHODS)[data["method"]],
        "cents_per_point": cents,
        "rate_lowered": cents is not None
        and data.get("cents_per_point") is not None
        and cents < data["cents_per_point"],
        "tip_percent": data.get("tip_percent"),
        "bill": data["total"],
    }


urlpatterns = [
    path("l/<slug:slug>/seasons/<int:number>/bill/", season_bill, name="season_bill"),
]
