"""Forms of a season: reopening it and its bill."""

from __future__ import annotations

from decimal import Decimal
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.fields import AmountField, ReasonForm
from leagues.money import canonical, money_text, number_text
from scoring.bill import DEFAULT_METHOD
from scoring.bill import METHODS as BILL_METHODS
from scoring.limits import MAX_CENTS_PER_POINT, MAX_MONEY_CENTS


class ReopenSeasonForm(ReasonForm):
    """An admin reopens a closed season; the reason is shown on its bill page."""

    label = _("Why is the season reopened?")
    help = _("Kept on the season's bill page, with your name and the time.")
    required = _("Say why the season is reopened.")


# --- the bill at the end of a season (views/bill.py) --------------------------------------------

SEVERAL = "several"
# The engine's own labels (marked for translation in scoring/), default method first.
METHODS = [(key, _(label)) for key, label in sorted(BILL_METHODS.items(), key=lambda m: m[0] != DEFAULT_METHOD)]


# The amounts are read by AmountField in the page's language ("187,40" and "1.234,50" in
# German) and within the bounds of scoring/limits.py, so the engine's own checks agree with
# the form's. The link of a split bill carries them canonical ("187.40"): it opens the same
# bill in either language.
MAX_MONEY = Decimal(MAX_MONEY_CENTS) / 100

# A restaurant bill above 200 € a head is asked about before it is split. A club's evening
# out costs 25 to 80 € a head; the slip this catches is a decimal separator read as nothing
# ("187,40" taken for 18,740 € once, with no warning): it makes the bill a hundred times
# larger, and any bill above 2 € a head then passes the line. Per head, not for the whole
# bill, since a club of twenty spends what would be a typo for a club of four.
PLAUSIBLE_PER_HEAD = Decimal(200)


class BillForm(forms.Form):
    total = AmountField(
        label=_("The bill (€)"),
        min_value=Decimal("0.01"),
        max_value=MAX_MONEY,
        max_digits=9,
        decimal_places=2,
    )
    tip_percent = AmountField(
        label=_("Tip (%)"),
        min_value=0,
        max_value=100,
        max_digits=5,
        decimal_places=2,
        required=False,
    )
    method = forms.ChoiceField(
        label=_("How to split"), choices=METHODS, initial=DEFAULT_METHOD, widget=forms.RadioSelect
    )
    cents_per_point = AmountField(
        label=_("Cents per point"),
        min_value=0,
        max_value=MAX_CENTS_PER_POINT,
        max_digits=7,
        decimal_places=2,
        required=False,
        help_text=_("Only for “by points”. Lowered by itself if someone would get money back."),
    )
    from_cashbox = AmountField(
        label=_("From the cashbox (€)"),
        min_value=0,
        max_value=MAX_MONEY,
        max_digits=9,
        decimal_places=2,
        required=False,
        help_text=_("What the league's cashbox pays of the total with tip; the rest is split. An admin's."),
    )
    paid_by = forms.ChoiceField(label=_("Who paid"), required=False)
    # The bill as read (canonical, "18740.00") when the checkbox "yes, that is right" is
    # ticked: a confirmation holds for that amount only, also in the shared link.
    confirm_total = forms.CharField(required=False)

    def __init__(self, *args, players, cashbox=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        # What the cashbox can pay (Decimal, euros; selectors.available_for_bill), or None
        # when the caller does not bound it.
        self.cashbox = cashbox
        # The examples in the page's language: "zum Beispiel 187,40" in German.
        example = number_text(Decimal("187.40"), places=2)
        self.fields["total"].error_messages.update(
            {
                "required": gettext("Enter the bill, for example %(example)s.") % {"example": example},
                "invalid": gettext("Enter the bill as an amount, for example %(example)s.") % {"example": example},
                "min_value": gettext("The bill must be more than 0."),
                "max_decimal_places": gettext("At most two decimals (cents)."),
            }
        )
        self.fields["total"].widget.attrs["placeholder"] = example
        for name, sample in (("tip_percent", "10"), ("cents_per_point", "10"), ("from_cashbox", "50")):
            self.fields[name].error_messages["invalid"] = gettext(
                "%(field)s: type a number, for example %(example)s."
            ) % {
                "field": self.fields[name].label,
                "example": number_text(Decimal(sample)),
            }
        self.fields["paid_by"].choices = [
            ("", gettext("Nobody yet")),
            *[(str(p.pk), p.name) for p in players],
            (SEVERAL, gettext("Several of us (amounts below)")),
        ]
        for p in players:
            self.fields[f"paid_{p.pk}"] = AmountField(
                label=p.name,
                min_value=0,
                max_value=MAX_MONEY,
                max_digits=9,
                decimal_places=2,
                required=False,
                error_messages={
                    "invalid": gettext("%(field)s: type the amount paid, for example %(example)s.")
                    % {"field": p.name, "example": example}
                },
            )
        # Set by clean() when the bill is above the plausible amount and not yet confirmed.
        self.confirm_amount = None

    def paid_fields(self):
        return [self[f"paid_{p.pk}"] for p in self.players]

    def clean(self):
        data = super().clean()
        if data.get("paid_by") == SEVERAL and not any(data.get(f"paid_{p.pk}") for p in self.players):
            self.add_error("paid_by", gettext("Enter how much each of you paid."))
        self._clean_cashbox(data)
        total = data.get("total")
        implausible = total is not None and self.players and total > PLAUSIBLE_PER_HEAD * len(self.players)
        if not implausible or data.get("confirm_total") != canonical(total, places=2):
            data["confirm_total"] = ""  # a confirmation of another amount confirms nothing
        if implausible and not data["confirm_total"]:
            each = total / len(self.players)
            self.confirm_amount = {"total": total, "each": each, "canonical": canonical(total, places=2)}
            self.add_error(
                "total",
                gettext(
                    "Read as %(total)s: that is %(each)s for each of %(players)s. "
                    "If that is right, tick “Yes, that is right”; else correct the amount."
                )
                % {"total": money_text(total), "each": money_text(each), "players": len(self.players)},
            )
        return data

    def _clean_cashbox(self, data):
        """The cashbox's share: no more than it holds (the total with tip bounds it too:
        services.split_season_bill)."""
        share = data.get("from_cashbox")
        if share and self.cashbox is not None and share > self.cashbox:
            self.add_error(
                "from_cashbox",
                gettext("From the cashbox: it holds only %(balance)s by its ledger.")
                % {"balance": money_text(self.cashbox)},
            )

    def bill_request(self, scores):
        """The split_bill request (calculate-api.md) for the cleaned data."""
        data = self.cleaned_data
        request = {"total": f"{data['total']:.2f}", "scores": scores, "method": data["method"]}
        if data["method"] == "per_point" and data.get("cents_per_point") is not None:
            request["cents_per_point"] = canonical(data["cents_per_point"])
        tip = data.get("tip_percent")
        if tip:
            request["tip_percent"] = canonical(tip)
        if data.get("from_cashbox"):
            request["from_cashbox"] = canonical(data["from_cashbox"], places=2)
        names = {str(p.pk): p.name for p in self.players}
        if data.get("paid_by") == SEVERAL:
            request["paid"] = {p.name: f"{data.get(f'paid_{p.pk}') or 0:.2f}" for p in self.players}
        elif data.get("paid_by"):
            request["paid_by"] = names[data["paid_by"]]
        return request

    def canonical_data(self):
        """The cleaned inputs as the link carries them: a decimal point, no grouping
        ("1234.50" whatever the page's language), only what was given."""
        data = self.cleaned_data
        query = {"total": canonical(data["total"], places=2)}
        for name in ("tip_percent", "cents_per_point"):
            if data.get(name) is not None:
                query[name] = canonical(data[name])
        if data.get("from_cashbox"):
            query["from_cashbox"] = canonical(data["from_cashbox"], places=2)
        query["method"] = data["method"]
        if data.get("paid_by"):
            query["paid_by"] = data["paid_by"]
        for p in self.players:
            if data.get(f"paid_{p.pk}") is not None:
                query[f"paid_{p.pk}"] = canonical(data[f"paid_{p.pk}"], places=2)
        if data.get("confirm_total"):
            query["confirm_total"] = data["confirm_total"]
        return query

    def query(self):
        """The inputs as a query string, so the result page can be shared and printed."""
        return urlencode(self.canonical_data())
