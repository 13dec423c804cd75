"""The restaurant bill at the end of a season: POST /api/v1/bill-split/.

shared/spec/league.md ("End of a season: the restaurant bill") and calculate-api.md. Pure
Python, exact money: amounts are integer cents, shares exact fractions of a cent until the
largest remainder method rounds them so that they sum exactly to the total.

``split_bill(data)`` takes the request body and returns the response body, or raises
``ScoringError`` with every problem (``hand`` None, ``field`` the request field). The API takes
whole numbers as scores; the league's own bill passes ``exact_scores=True`` and may give a
season's score as an exact ``Fraction`` (a season whose evenings count by points per game or
placings), so that ``per_point`` and ``by_rank`` work on the exact score.

- ``equal``: everyone pays total / n.
- ``per_point`` (default): share = total / n + rate × (mean score − own score), rate =
  ``cents_per_point`` / 100 euros (default 10 cents). If that would make a share negative the
  rate is lowered to the largest rate at which nobody pays less than 0 (the best pays 0).
- ``by_rank``: weight = place (best 1 … worst n; tied players share the average of their
  places); share = total × weight / sum of weights.
- Leftover cents go to the largest remainders; ties: lower score first, then the earlier
  player in ``scores``.
- ``tip_percent`` raises the total first: tip = total × percent / 100, rounded half up to the
  cent.
- ``paid_by``: one transfer from every other player with a share above 0.00 to him, in the
  order of ``scores``. ``paid``: balances (paid − share) settled greedily, the largest debtor
  paying the largest creditor (ties: the earlier in ``scores``); every transfer zeroes at
  least one balance, so there are at most n − 1. Debtors and creditors wait in two heaps, so
  settling takes n log n steps (a search of every balance for each transfer took 15 seconds
  for 10,000 players).
- ``chooses_restaurant``: the worst score; tied, the first of them in ``scores``.

Decisions where the spec is silent:

- Money (``total``, amounts in ``paid``) is a string like "187.40" or "187.4" or "187", or a
  JSON number, with at most two decimals, not negative. ``tip_percent`` and
  ``cents_per_point`` are numbers (or decimal strings) of at least 0 with at most two decimals;
  ``tip_percent`` at most 100. ``null`` counts as omitted for every optional field.
- ``cents_per_point`` is checked with any method but used only by ``per_point``.
- ``rate`` is rounded half up to four decimals (a lowered rate can have more).
- Giving both ``paid_by`` and ``paid`` is one problem, reported on ``paid``. In ``paid``
  players not named paid nothing; every name must be in ``scores``.
- Scores need at least one player.
- Limits (``scoring/limits.py``), each a problem on its field: at most 1,000 players
  (``scores``, and the entries of ``paid``); money (``total``, each amount in ``paid``) at
  most 1,000,000.00; ``cents_per_point`` at most 10,000; a season's score at most 10^12
  either way. Money strings are read with ASCII digits only, a decimal point or comma, and
  at most two decimals (``scoring/numbers.py``).
"""

from __future__ import annotations

import heapq
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .errors import Problems, _
from .limits import MAX_BILL_PLAYERS, MAX_CENTS_PER_POINT, MAX_MONEY_CENTS, MAX_SEASON_SCORE
from .numbers import decimal_number

METHODS = {
    "equal": _("Everyone pays the same"),
    "per_point": _("By points: the better your season, the less you pay"),
    "by_rank": _("By place: the last pays most, the first least"),
}
DEFAULT_METHOD = "per_point"
DEFAULT_CENTS_PER_POINT = 10
MAX_TIP_PERCENT = 100
FIELDS = frozenset({"total", "scores", "method", "cents_per_point", "tip_percent", "paid_by", "paid"})

_BAD = object()
MAX_MONEY = Fraction(MAX_MONEY_CENTS, 100)


def _hundredths(value: Any) -> Fraction | None | object:
    """A non-negative number with at most two decimals as an exact Fraction.

    Returns None for a negative number, _BAD for anything else that is not such a number.
    """
    number = _exact(value)
    if number is _BAD or (number * 100).denominator != 1:
        return _BAD
    if number < 0:
        return None
    return number


def _exact(value: Any) -> Fraction | object:
    """A JSON number or a decimal string as an exact Fraction; _BAD for anything else."""
    if isinstance(value, bool):
        return _BAD
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(Decimal(repr(value))) if math.isfinite(value) else _BAD
    if isinstance(value, Decimal):
        return Fraction(value) if value.is_finite() else _BAD
    if isinstance(value, str):
        # ASCII digits, a decimal point or comma, at most two decimals; "-0" is 0.
        number = decimal_number(value, places=2)
        return _BAD if number is None else number
    return _BAD


def _total_cents(value: Any, problems: Problems) -> int | None:
    number = _hundredths(value)
    if number is _BAD:
        problems.add(None, "total", _("The total must be an amount in euros with at most two decimals, like 187.40."))
        return None
    if number is None:
        problems.add(None, "total", _("The total may not be negative."))
        return None
    if number > MAX_MONEY:
        problems.add(None, "total", _("The total can be at most %(max)s."), max=money(MAX_MONEY_CENTS))
        return None
    return int(number * 100)


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def _rate_string(cents_per_point: Fraction) -> str:
    """Euros per point, rounded half up to four decimals."""
    ten_thousandths = math.floor(cents_per_point * 100 + Fraction(1, 2))
    return f"{ten_thousandths // 10000}.{ten_thousandths % 10000:04d}"


def _parse(data: Any, *, exact_scores: bool = False) -> tuple[Problems, dict[str, Any]]:
    problems = Problems()
    parsed: dict[str, Any] = {}
    if not isinstance(data, dict):
        problems.add(None, None, _("The request must be a JSON object."))
        return problems, parsed
    for key in data:
        if key not in FIELDS:
            problems.add(None, str(key), _("Unknown field “%(name)s”."), name=str(key))
    if data.get("total") is None:
        problems.add(None, "total", _("Give the total of the bill."))
    else:
        parsed["total"] = _total_cents(data["total"], problems)
    scores = _parse_scores(data.get("scores"), problems, exact=exact_scores)
    if scores is not None:
        parsed["scores"] = scores
    method = data.get("method")
    if method is None:
        method = DEFAULT_METHOD
    if not isinstance(method, str) or method not in METHODS:
        problems.add(None, "method", _("Unknown method. Choose one of: %(methods)s."), methods=", ".join(METHODS))
    parsed["method"] = method
    _parse_numbers(data, parsed, problems)
    _parse_payers(data, data.get("scores"), parsed, problems)
    return problems, parsed


def _parse_scores(scores: Any, problems: Problems, *, exact: bool) -> dict[str, int | Fraction] | None:
    """The season's totals by player (``exact``: ints or Fractions); None after a problem."""
    if scores is None:
        problems.add(None, "scores", _("Give the season's totals by player."))
    elif not isinstance(scores, dict) or len(scores) > MAX_BILL_PLAYERS:
        problems.add(
            None,
            "scores",
            _("Scores must map each player's name to his season total, for at most %(max)s players."),
            max=MAX_BILL_PLAYERS,
        )
    elif not _names_and_totals(scores, exact=exact):
        problems.add(
            None,
            "scores",
            _("Scores must map each player's name to his season total (a whole number from %(min)s to %(max)s)."),
            min=-MAX_SEASON_SCORE,
            max=MAX_SEASON_SCORE,
        )
    elif not scores:
        problems.add(None, "scores", _("Name at least one player."))
    else:
        return scores
    return None


def _names_and_totals(scores: dict, *, exact: bool) -> bool:
    """Every name is a name, every total a whole number (``exact``: or a Fraction, never a bool
    or a float) within the limits."""
    kinds = (int, Fraction) if exact else (int,)
    return all(isinstance(k, str) and k.strip() for k in scores) and all(
        type(v) in kinds and abs(v) <= MAX_SEASON_SCORE for v in scores.values()
    )


def _parse_numbers(data: dict[str, Any], parsed: dict[str, Any], problems: Problems) -> None:
    """``cents_per_point`` and ``tip_percent``, each with its default when left out."""
    cpp = data.get("cents_per_point")
    number = Fraction(DEFAULT_CENTS_PER_POINT) if cpp is None else _at_most(cpp, MAX_CENTS_PER_POINT)
    if number is None:
        problems.add(
            None,
            "cents_per_point",
            _("Cents per point must be a number from 0 to %(max)s (at most two decimals)."),
            max=MAX_CENTS_PER_POINT,
        )
    else:
        parsed["cents_per_point"] = number
    tip = data.get("tip_percent")
    number = Fraction(0) if tip is None else _at_most(tip, MAX_TIP_PERCENT)
    if number is None:
        problems.add(None, "tip_percent", _("The tip must be a percentage from 0 to 100 (at most two decimals)."))
    else:
        parsed["tip_percent"] = number


def _at_most(value: Any, most) -> Fraction | None:
    """A number from 0 to ``most`` with at most two decimals; None for anything else."""
    number = _hundredths(value)
    if number is _BAD or number is None or number > most:
        return None
    return number


def _parse_payers(data: dict[str, Any], scores: Any, parsed: dict[str, Any], problems: Problems) -> None:
    """``paid_by`` (who paid the whole bill) or ``paid`` (what each paid), not both."""
    paid_by = data.get("paid_by")
    paid = data.get("paid")
    if paid_by is not None and paid is not None:
        problems.add(
            None, "paid", _("Say either who paid the whole bill (paid_by) or what each paid (paid), not both.")
        )
    elif paid_by is not None:
        if not isinstance(paid_by, str):
            problems.add(None, "paid_by", _("Name the player who paid."))
        elif isinstance(scores, dict) and paid_by not in scores:
            problems.add(None, "paid_by", _("%(name)s is not one of the players."), name=paid_by)
        else:
            parsed["paid_by"] = paid_by
    elif paid is not None:
        if not isinstance(paid, dict) or len(paid) > MAX_BILL_PLAYERS:
            problems.add(None, "paid", _("Paid must map players to the amounts they paid."))
        else:
            parsed["paid"] = _paid_cents(paid, scores, problems)


def _paid_cents(paid: dict, scores: Any, problems: Problems) -> dict[str, int]:
    """What each player named paid, in cents."""
    amounts = {}
    for name, value in paid.items():
        if isinstance(scores, dict) and name not in scores:
            problems.add(None, "paid", _("%(name)s is not one of the players."), name=str(name))
            continue
        number = _at_most(value, MAX_MONEY)
        if number is None:
            problems.add(
                None,
                "paid",
                _("What %(name)s paid must be an amount from 0 to %(max)s with at most two decimals."),
                name=name,
                max=money(MAX_MONEY_CENTS),
            )
        else:
            amounts[name] = int(number * 100)
    return amounts


def split_bill(data: Any, *, exact_scores: bool = False) -> dict[str, Any]:
    """The response of POST /api/v1/bill-split/; raises ScoringError with every problem.
    ``exact_scores``: the scores may be exact Fractions as well as ints (the league's bill)."""
    problems, parsed = _parse(data, exact_scores=exact_scores)
    if problems:
        problems.raise_if_any()
    scores: dict[str, int | Fraction] = parsed["scores"]
    names = list(scores)
    bill = parsed["total"]
    tip = math.floor(bill * parsed["tip_percent"] / 100 + Fraction(1, 2))
    total = bill + tip
    if "paid" in parsed and sum(parsed["paid"].values()) != total:
        problems.add(
            None,
            "paid",
            _("The amounts paid add up to %(paid)s, not to the total with tip of %(total)s."),
            paid=money(sum(parsed["paid"].values())),
            total=money(total),
        )
        problems.raise_if_any()
    exact, rate = _exact_shares(parsed["method"], total, scores, parsed["cents_per_point"])
    shares = dict(zip(names, _in_cents(exact, total, scores, names), strict=True))
    worst = min(scores.values())
    return {
        "total": money(total),
        "rate": rate,
        "shares": {p: money(c) for p, c in shares.items()},
        "transfers": _transfers(parsed, shares, names),
        "chooses_restaurant": next(p for p in names if scores[p] == worst),
    }


def _exact_shares(
    method: str, total: int, scores: dict[str, int | Fraction], cpp: Fraction
) -> tuple[list[Fraction], str | None]:
    """Each player's share in exact fractions of a cent, in the order of ``scores``, and the
    rate (``per_point`` only)."""
    n = len(scores)
    even = Fraction(total, n)
    if method == "equal":
        return [even] * n, None
    if method == "per_point":
        mean = Fraction(sum(scores.values()), n)
        best = max(scores.values())
        if best > mean and cpp * (best - mean) > even:
            cpp = even / (best - mean)  # the largest rate at which the best pays nothing
        return [even + cpp * (mean - score) for score in scores.values()], _rate_string(cpp)
    weight_of = _rank_weights(scores)  # by_rank
    weight_sum = Fraction(n * (n + 1), 2)
    return [total * weight_of[score] / weight_sum for score in scores.values()], None


def _rank_weights(scores: dict[str, int | Fraction]) -> dict[int | Fraction, Fraction]:
    """Each score's weight: its place (best 1 … worst n), tied players sharing the average."""
    ordered = sorted(scores.values(), reverse=True)
    n = len(ordered)
    weight_of: dict[int | Fraction, Fraction] = {}
    place = 1
    i = 0
    while i < n:
        j = i
        while j < n and ordered[j] == ordered[i]:
            j += 1
        # places i+1 .. j share their average
        weight_of[ordered[i]] = Fraction(place + place + (j - i) - 1, 2)
        place += j - i
        i = j
    return weight_of


def _in_cents(exact: list[Fraction], total: int, scores: dict[str, int | Fraction], names: list[str]) -> list[int]:
    """The shares rounded down to the cent, the leftover cents to the largest remainders (ties:
    the lower score, then the earlier player)."""
    floors = [share.numerator // share.denominator for share in exact]
    leftover = total - sum(floors)
    order = sorted(range(len(names)), key=lambda i: (-(exact[i] - floors[i]), scores[names[i]], i))
    for i in order[:leftover]:
        floors[i] += 1
    return floors


def _transfers(parsed: dict[str, Any], shares: dict[str, int], names: list[str]) -> list[dict[str, str]]:
    """Who pays whom: everyone with a share to ``paid_by``, or what settles ``paid``."""
    if "paid_by" in parsed:
        payer = parsed["paid_by"]
        return [
            {"from": name, "to": payer, "amount": money(shares[name])}
            for name in names
            if name != payer and shares[name]
        ]
    if "paid" in parsed:
        return _settle([parsed["paid"].get(p, 0) - shares[p] for p in names], names)
    return []


def _settle(balances: list[int], names: list[str]) -> list[dict[str, str]]:
    """Transfers that bring every balance (paid − share, in cents; they sum to 0) to 0: the
    largest debtor pays the largest creditor, ties to the earlier player, until nobody owes.

    Each side waits in a heap ordered by (how much, seat in ``scores``), so a transfer costs
    log n instead of a search of every balance; whoever is left with a balance goes back in.
    """
    debtors = [(b, i) for i, b in enumerate(balances) if b < 0]  # most negative first
    creditors = [(-b, i) for i, b in enumerate(balances) if b > 0]  # largest first
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    transfers = []
    while debtors:
        owes, debtor = heapq.heappop(debtors)
        due, creditor = heapq.heappop(creditors)
        amount = min(-owes, -due)
        transfers.append({"from": names[debtor], "to": names[creditor], "amount": money(amount)})
        if owes + amount:
            heapq.heappush(debtors, (owes + amount, debtor))
        if due + amount:
            heapq.heappush(creditors, (due + amount, creditor))
    return transfers
