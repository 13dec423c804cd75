"""A stored bill of a league export (leagues/exchange/league_file.py), read as the bill page stores one.

Its inputs (the bill, the tip, the method, the rate, who paid) go through the columns that
keep them and through scoring's split_bill, as services.settle_bill does, with the standings
the file says it was split by; its figures (the total with tip, the rate, the shares, the
transfers, who chooses the restaurant) must be what split_bill gives for them. A file whose
figures differ is refused, not corrected: a stored bill is what the club paid.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from leagues import exceptions
from leagues.exchange import import_checks as checks
from leagues.exchange.import_checks import ImportProblem
from leagues.models import SeasonBill
from leagues.models.season import kept_score, read_score
from leagues.seasons.services import split_season_bill
from scoring.errors import ScoringError


def _scores(item, where, player) -> dict[str, int | Fraction]:
    """The standings the bill was split by: [[name, score], ...] in standings order, a score a
    whole number or an exact fraction in text ("17/3", a season counted by points per game or
    placings)."""
    scores: dict[str, int | Fraction] = {}
    for k, pair in enumerate(checks.value(item, "scores", where, list), start=1):
        at = f"{where}.scores[{k}]"
        shaped = isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
        score = _score(pair[1]) if shaped else None
        if score is None or pair[0] in scores:
            raise ImportProblem(at, _("a player's name and a whole number or fraction, once for each player."))
        scores[player(pair[0], at).name] = score
    return scores


def _score(value) -> int | Fraction | None:
    """A score of the file: an int, or a fraction in text ("17/3", "-5/2"); None otherwise."""
    if type(value) is int:
        return value
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,15}/[1-9][0-9]{0,15}", value):
        score = read_score(value)
        # As the export writes it: in lowest terms, and a whole number as a number.
        if isinstance(score, Fraction) and score.denominator > 1 and str(score) == value:
            return score
    return None


def _bill_request(item, where, player) -> dict[str, Any]:
    """The bill's inputs as the split_bill request the bill page makes of a stored bill
    (services.stored_bill_request), with the standings it was split by."""
    money = {"model": SeasonBill}
    total = checks.amount(item, "total", where, field="total", required=True, **money)
    request = {"total": f"{total:.2f}", "scores": _scores(item, where, player)}
    request["method"] = checks.text(item, "method", where, model=SeasonBill, field="method")
    tip = checks.amount(item, "tip_percent", where, field="tip_percent", **money)
    if tip:
        request["tip_percent"] = str(tip)
    cents = checks.amount(item, "cents_per_point", where, field="cents_per_point", **money)
    if cents is not None and request["method"] == "per_point":
        request["cents_per_point"] = str(cents)
    paid_by = player(item.get("paid_by"), f"{where}.paid_by", required=False)
    if paid_by is not None:
        request["paid_by"] = paid_by.name
    elif item.get("paid"):
        paid = checks.value(item, "paid", where, dict)
        request["paid"] = {
            player(name, f"{where}.paid").name: str(checks.amount(paid, name, f"{where}.paid", field="total", **money))
            for name in paid
        }
    from_cashbox = checks.amount(item, "from_cashbox", where, field="from_cashbox", **money)
    if from_cashbox:
        request["from_cashbox"] = f"{from_cashbox:.2f}"
    return request


def import_bill(item, where, season, player) -> SeasonBill:
    """A stored bill: its inputs as the bill page takes them, its figures the engine's split
    of them by its standings (a file whose figures differ is refused, not corrected)."""
    request = _bill_request(item, where, player)
    try:
        result = split_season_bill(request=request)
    except ScoringError as error:
        raise ImportProblem(where, " ".join(e["message"] for e in exceptions.problems_as_errors(error))) from error
    figures = _engine_figures(request, result)
    in_file = _file_figures(item, where)
    money = {"model": SeasonBill}
    for key, figure in figures.items():
        if in_file[key] != figure:
            raise ImportProblem(f"{where}.{key}", _("not what the bill's inputs split by its standings give."))
    return SeasonBill.objects.create(
        season=season,
        total=Decimal(request["total"]),
        tip_percent=checks.amount(item, "tip_percent", where, field="tip_percent", **money),
        method=request["method"],
        cents_per_point=checks.amount(item, "cents_per_point", where, field="cents_per_point", **money),
        paid_by=player(request.get("paid_by"), f"{where}.paid_by", required=False),
        paid=figures["paid"],
        total_with_tip=figures["total_with_tip"],
        from_cashbox=Decimal(request.get("from_cashbox") or 0),
        rate=figures["rate"],
        shares=figures["shares"],
        transfers=figures["transfers"],
        scores=[[name, kept_score(score)] for name, score in request["scores"].items()],
        chooser=player(figures["chooser"], f"{where}.chooser"),
        settled_by_name=checks.who(item, "settled_by", where) or None,
        settled_at=checks.moment(item, "settled_at", where),
        replaced_at=checks.moment(item, "replaced_at", where, required=False),
    )


def _engine_figures(request, result) -> dict:
    """The bill's figures as the engine splits its inputs, and who paid what, as
    services.settle_bill keeps it."""
    paid = {name: amount for name, amount in (request.get("paid") or {}).items() if Decimal(amount)} or None
    if "paid_by" in request:
        paid = {request["paid_by"]: result.get("rest", result["total"])}
    return {
        "total_with_tip": Decimal(result["total"]),
        "rate": None if result.get("rate") is None else Decimal(str(result["rate"])),
        "shares": result["shares"],
        "transfers": result.get("transfers") or [],
        "chooser": result["chooses_restaurant"],
        "paid": paid,
    }


def _file_figures(item, where) -> dict:
    """The same figures as the file states them."""
    money = {"model": SeasonBill}
    return {
        "total_with_tip": checks.amount(item, "total_with_tip", where, field="total_with_tip", required=True, **money),
        "rate": checks.amount(item, "rate", where, field="rate", **money),
        "shares": checks.value(item, "shares", where, dict),
        "transfers": checks.value(item, "transfers", where, list, required=False) or [],
        "chooser": item.get("chooser"),
        "paid": item.get("paid"),
    }
