"""The restaurant bill at the end of a season (league.md, "End of a season").

Nothing is stored: a scorekeeper or admin posts the bill, the page redirects to itself with the
inputs in the query string, and that URL shows (and prints) the split for every member. The
money is scoring.bill.split_bill's: this module only gathers the inputs and shows its answer.
"""

from decimal import Decimal
from urllib.parse import urlencode

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring.bill import DEFAULT_METHOD, split_bill
from scoring.bill import METHODS as BILL_METHODS
from scoring.errors import ScoringError
from scoring.limits import MAX_CENTS_PER_POINT, MAX_MONEY_CENTS

from .. import selectors
from ..forms import AmountField
from ..models import Role, Season
from ..permissions import league_for
from ..services import problems_as_errors

SEVERAL = "several"
# The engine's own labels (marked for translation in scoring/), default method first.
METHODS = [
    (key, gettext_lazy(label)) for key, label in sorted(BILL_METHODS.items(), key=lambda m: m[0] != DEFAULT_METHOD)
]


# The amounts are read by AmountField: ASCII digits, a decimal point or comma ("187,40"), and
# within the bounds of scoring/limits.py, so the engine's own checks agree with the form's.
MAX_MONEY = Decimal(MAX_MONEY_CENTS) / 100


def _money_widget():
    return forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.01", "min": "0"})


class BillForm(forms.Form):
    total = AmountField(
        label=gettext_lazy("The bill (€)"),
        min_value=Decimal("0.01"),
        max_value=MAX_MONEY,
        max_digits=9,
        decimal_places=2,
        widget=_money_widget(),
        error_messages={
            "required": gettext_lazy("Enter the bill, for example 187.40."),
            "invalid": gettext_lazy("Enter the bill as an amount, for example 187.40."),
            "min_value": gettext_lazy("The bill must be more than 0."),
            "max_decimal_places": gettext_lazy("At most two decimals (cents)."),
        },
    )
    tip_percent = AmountField(
        label=gettext_lazy("Tip (%)"),
        min_value=0,
        max_value=100,
        max_digits=5,
        decimal_places=2,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.5", "min": "0"}),
    )
    method = forms.ChoiceField(
        label=gettext_lazy("How to split"), choices=METHODS, initial=DEFAULT_METHOD, widget=forms.RadioSelect
    )
    cents_per_point = AmountField(
        label=gettext_lazy("Cents per point"),
        min_value=0,
        max_value=MAX_CENTS_PER_POINT,
        max_digits=7,
        decimal_places=2,
        required=False,
        help_text=gettext_lazy("Only for “by points”. Lowered by itself if someone would get money back."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": "0"}),
    )
    paid_by = forms.ChoiceField(label=gettext_lazy("Who paid"), required=False)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.fields["paid_by"].choices = [
            ("", _("Nobody yet")),
            *[(str(p.pk), p.name) for p in players],
            (SEVERAL, _("Several of us (amounts below)")),
        ]
        for p in players:
            self.fields[f"paid_{p.pk}"] = AmountField(
                label=p.name,
                min_value=0,
                max_value=MAX_MONEY,
                max_digits=9,
                decimal_places=2,
                required=False,
                widget=_money_widget(),
            )

    def paid_fields(self):
        return [self[f"paid_{p.pk}"] for p in self.players]

    def clean(self):
        data = super().clean()
        if data.get("paid_by") == SEVERAL and not any(data.get(f"paid_{p.pk}") for p in self.players):
            self.add_error("paid_by", _("Enter how much each of you paid."))
        return data

    def bill_request(self, scores):
        """The split_bill request (calculate-api.md) for the cleaned data."""
        data = self.cleaned_data
        request = {"total": f"{data['total']:.2f}", "scores": scores, "method": data["method"]}
        if data["method"] == "per_point" and data.get("cents_per_point") is not None:
            request["cents_per_point"] = str(data["cents_per_point"])
        tip = data.get("tip_percent")
        if tip:
            request["tip_percent"] = str(tip)
        names = {str(p.pk): p.name for p in self.players}
        if data.get("paid_by") == SEVERAL:
            request["paid"] = {p.name: f"{data.get(f'paid_{p.pk}') or 0:.2f}" for p in self.players}
        elif data.get("paid_by"):
            request["paid_by"] = names[data["paid_by"]]
        return request

    def query(self):
        """The inputs as a query string, so the result page can be shared and printed."""
        data = {k: v for k, v in self.data.items() if k in self.fields and v not in ("", None)}
        return urlencode(data)


# Engine fields (calculate-api.md) -> the form field that carries the message.
ENGINE_FIELDS = {
    "total": "total",
    "tip_percent": "tip_percent",
    "method": "method",
    "cents_per_point": "cents_per_point",
    "paid_by": "paid_by",
    "paid": "paid_by",
}


def _split(form, scores):
    """split_bill's answer, or None with its problems put on the form's fields."""
    try:
        return split_bill(form.bill_request(scores))
    except ScoringError as error:
        for problem in problems_as_errors(error):
            form.add_error(ENGINE_FIELDS.get(problem["field"]), problem["message"])
        return None


@require_http_methods(["GET", "POST"])
@login_required
def season_bill(request, slug, number):
    league, membership = league_for(user=request.user, slug=slug)
    season = get_object_or_404(Season, league=league, number=number)
    may_edit = membership.allows(Role.SCOREKEEPER)
    if request.method == "POST" and not may_edit:
        raise PermissionDenied
    table = selectors.season_table(season=season)
    race = selectors.is_race_game(league.game)
    # The season's standing figure: total points, or games won in race games.
    scores = {row.player.name: (row.games_won if race else row.total) for row in table}
    players = [row.player for row in table]
    context = {
        "league": league,
        "season": season,
        "table": table,
        "race": race,
        "may_edit": may_edit,
        "chooser": table[-1].player if table else None,
        "result": None,
    }
    if season.closed_on is None:
        context["not_hosted"] = selectors.not_hosted_yet(season=season)
        return render(request, "bill/bill.html", context, status=400 if request.method == "POST" else 200)
    if not table:
        raise Http404  # a closed season without a single hand: nothing to split

    data = request.POST if request.method == "POST" else (request.GET if "total" in request.GET else None)
    form = BillForm(data, players=players, initial={"method": "per_point", "cents_per_point": 10, "tip_percent": 0})
    context["form"] = form
    if data is None:
        return render(request, "bill/bill.html", context)
    result = _split(form, scores) if form.is_valid() else None
    if result is None:
        return render(request, "bill/bill.html", context, status=400)
    if request.method == "POST":
        # Post/redirect/get: the result lives at a URL anyone in the league can open again.
        return HttpResponseRedirect(f"{request.path}?{form.query()}", status=303)
    context["result"] = _result_rows(result, table, scores, form)
    context["share_url"] = request.build_absolute_uri()
    return render(request, "bill/bill.html", context)


def _result_rows(result, table, scores, form):
    paid = result.get("paid") or {}
    data = form.cleaned_data
    if data.get("paid_by") == SEVERAL:
        paid = {p.name: data.get(f"paid_{p.pk}") or Decimal(0) for p in form.players}
    elif data.get("paid_by"):
        payer = next(p.name for p in form.players if str(p.pk) == data["paid_by"])
        paid = {payer: Decimal(result["total"])}
    rows = [
        {
            "player": row.player,
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
