"""The club night of `make bench-league` (tests/bench/league.py): built into each league after
its evenings, and the timed writes at its tables.

The night is tonight, after the league's last evening: two tables of four (the league's first
four players; the fifth with three newcomers), each with ``HANDS`` normal games already
played (bulk-inserted, their results written by the app's own writer from the real replay, as
``tests.bench.build`` builds evenings).

Its rows:

- ``night_poll``: the members' night page's part asked again with its ETag, nothing changed
  at any table (a 304: the night's mark alone);
- ``night_entry``: the htmx entry of table 1's next hand, nothing else written meanwhile;
- ``night_entry_busy``: the same entry while a second phone enters hands at table 2 as fast
  as the server takes them (from just before the timed request until it is answered);
- ``night_entry_elsewhere``: the same entry while a phone of another league's night enters
  hands as fast (no row shared with table 1 at all).

Printed are the ratios busy / alone and busy / elsewhere. On a machine of few cores a second
writer slows any entry down, whatever it writes (the two share the processors): busy /
alone says how much. A table's write locks its own table alone, so on PostgreSQL an entry
waits no longer for a write at its night's other table than for one in another league:
busy / elsewhere stays near 1. SQLite locks the whole database for a writer, both ways.

Every entry is taken out again after its sample (the hands beyond those built deleted, both
tables replayed), so that every sample meets the night as built.
"""

from __future__ import annotations

import datetime
import re
import threading
import time
import uuid

HANDS = 20  # played at each table before the bench starts
NEWCOMERS = ["Fritz", "Gabi", "Hans"]
# An entry waits for the other table's writes no longer than for another league's, within this.
BUSY_ELSEWHERE = 1.25


def _payload(re_pair):
    return {"kind": "normal", "re": list(re_pair), "re_eyes": 131, "announcements": [], "specials": []}


def add_night(ids, *, hands=HANDS) -> dict:
    """A club night tonight in the league of ``ids``; {"pk", "tables": [meeting ids], "seated":
    [names a table], "hands": hands at each}."""
    from django.db import transaction

    from leagues.models import Hand, League, Meeting, Player
    from leagues.table import replay, results
    from leagues.table.nights import open_club_night

    league = League.objects.get(slug=ids["slug"])
    user = Meeting.objects.get(pk=ids["entry_meeting"]).created_by
    regulars = list(Player.objects.filter(league=league).order_by("pk"))[:5]
    newcomers = [Player.objects.get_or_create(league=league, name=name)[0] for name in NEWCOMERS]
    seated = [regulars[:4], [regulars[4], *newcomers]]
    with transaction.atomic():
        night = open_club_night(league=league, date=datetime.date.today(), host=regulars[0], tables=seated, user=user)
        tables = list(night.tables.order_by("table_number"))
        for table, players in zip(tables, seated, strict=True):
            names = [player.name for player in players]
            # Re turns round the table, so that every player wins and loses.
            payloads = [_payload((names[n % 4], names[(n + 1) % 4])) for n in range(hands)]
            rows = Hand.objects.bulk_create(
                Hand(meeting=table, position=i, number=i, payload=p, entered_by=user) for i, p in enumerate(payloads, 1)
            )
            results.write_results(table, rows, replay.calculate_meeting(table, payloads=payloads), carried=())
    return {
        "pk": night.pk,
        "tables": [table.pk for table in tables],
        "seated": [[p.name for p in players] for players in seated],
        "hands": hands,
    }


def entry_form(client, slug, meeting, seated, number):
    """What table ``meeting``'s phone posts for its hand ``number`` (Re: the first two at
    the table), with the sheet's mark read from the table's page."""
    from django.urls import reverse

    from tests.bench.league import normal_hand_form

    _status, page = client.request("GET", reverse("meeting", kwargs={"slug": slug, "pk": meeting}))
    found = re.search(rb'name="sheet_mark" value="([^"]*)"', page)
    form = {"expected_hand": str(number), "idempotency_key": str(uuid.uuid4())}
    if found:
        form["sheet_mark"] = found.group(1).decode()
    return {**form, **normal_hand_form(seated, eyes=131)}


class Busy:
    """A second phone entering hands at table 2 one after another until stopped."""

    def __init__(self, client, ids):
        from tests.live_server import Client

        self.client = Client(client.port)
        self.client.cookies = dict(client.cookies)
        self.ids, self.night = ids, ids["night"]
        self.started, self.stopped = threading.Event(), threading.Event()
        self.entered, self.problems = 0, []
        self.thread = threading.Thread(target=self._enter, daemon=True)

    def __enter__(self):
        self.thread.start()
        self.started.wait(timeout=60)
        time.sleep(0.01)  # its first hand on its way to the server
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join(timeout=120)
        if self.problems:
            raise RuntimeError(f"table 2's phone: {self.problems[0]}")

    def _enter(self):
        from django.urls import reverse

        from tests.bench.league import form_post

        slug, table, seated = self.ids["slug"], self.night["tables"][1], self.night["seated"][1]
        path = reverse("hand_add_hx", kwargs={"slug": slug, "pk": table})
        number = self.night["hands"] + 1
        form = entry_form(self.client, slug, table, seated, number)
        while not self.stopped.is_set():
            self.started.set()
            status, body = form_post(self.client, path, form, **{"HX-Request": "true"})
            if status != 200:
                self.problems.append(f"{status}: {body[:300]!r}")
                return
            self.entered += 1
            number += 1
            form = {**form, "expected_hand": str(number), "idempotency_key": str(uuid.uuid4())}
            form.pop("sheet_mark", None)  # the answer drew the new sheet; the next post asks for the whole


def undo(ids):
    """Every hand beyond those built taken out again at both tables of the night of ``ids``
    (if any), each table replayed."""
    if not ids or not ids.get("night"):
        return
    from django.db import transaction

    from leagues.models import Hand, Meeting
    from leagues.table import results as table_results

    night = ids["night"]
    with transaction.atomic():
        for table in night["tables"]:
            extra = Hand.objects.filter(meeting_id=table, position__gt=night["hands"])
            if extra.exists():
                extra.delete()
                table_results.replay_meeting(meeting=Meeting.objects.get(pk=table))


def ratios(figures) -> dict:
    """{"busy / alone" and "busy / elsewhere": {mode: {league: ratio}}}, the medians' ratios."""
    found = {"busy / alone": {}, "busy / elsewhere": {}}
    for mode, kinds in figures.items():
        busy = kinds.get("night_entry_busy", {})
        for name, other in (("busy / alone", "night_entry"), ("busy / elsewhere", "night_entry_elsewhere")):
            base = kinds.get(other, {})
            cells = {label: round(busy[label]["ms"] / base[label]["ms"], 2) for label in busy if label in base}
            if cells:
                found[name][mode] = cells
    return found


def summary(found) -> list[str]:
    """A line a ratio and mode; busy / elsewhere with its budget and whether it holds."""
    lines = []
    for name, modes in found.items():
        for mode, cells in modes.items():
            text = ", ".join(f"{label} {ratio}×" for label, ratio in cells.items())
            line = f"Club night, table 1's entry, {name} ({mode}): {text}"
            if name == "busy / elsewhere":
                verdict = "pass" if all(r <= BUSY_ELSEWHERE for r in cells.values()) else "FAIL"
                line += f" (≤ {BUSY_ELSEWHERE}×: {verdict})"
            lines.append(line)
    return lines
