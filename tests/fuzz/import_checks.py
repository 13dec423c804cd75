"""What the import fuzzer does with each file, inside a configured Django (the fuzzer's worker
process, tests/fuzz/import_mutations.py): the base league to mutate, the import through the
page a user imports with (Django's test client, the whole middleware stack, debug off), and
the checks of an imported league: every page of it 200, its export round trip equal, and
``verify_replays`` clean.

A request that raises is a server error (the client hands the exception on, with its
traceback, where a real server would answer 500).
"""

from __future__ import annotations

import datetime
import json
import traceback
import uuid
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from leagues.clubs import services as clubs_services
from leagues.exchange import paper_import
from leagues.management.commands.seed_demo import SLUG
from leagues.models import Combine, Hand, League, Player, Role
from leagues.seasons import services as seasons_services
from leagues.table import meetings as table_meetings
from leagues.table import nights, verify
from leagues.table import services as table_services
from tests.exchange.files import exported

ROOT = Path(__file__).resolve().parents[2]
# The demo evenings the base file keeps: the first two of season 1 (whose bill is stored),
# the last of season 2 (its hands corrected, deleted, discarded), the evening copied from
# paper and the two tables of tonight's club night. Every kind of hand and record is in them,
# and each import takes a few hundredths of a second; a mutation is only as slow as the
# evenings it has to replay.
KEPT_EVENINGS = (0, 1, -4, -3, -2, -1)
# Hands kept of each demo evening: enough for every kind of hand and round, few enough that
# an import takes some hundredths of a second.
HANDS_PER_EVENING = 6
# The meetings whose pages are opened: a file of a thousand evenings is checked on the pages
# that differ by what they show, not a thousand times the same page.
PAGED_MEETINGS = 10
# What an import cannot keep, so no export of an imported league has it as the file had it:
# the time of the export, the league's name and address (the importer gives them), and when
# each meeting row was made.
NOT_KEPT = {("exported_at",), ("league", "name"), ("league", "slug"), ("meetings", "*", "created_at")}
# A club night and a tournament name who made them by his account alone: an imported one
# names nobody.
NOT_KEPT.add(("club_nights", "*", "created_by"))
NOT_KEPT.add(("tournaments", "*", "created_by"))


@dataclass
class Answer:
    """One request's outcome: its status, or the error it raised (a server error)."""

    status: int
    content: bytes = b""
    error: str | None = None  # the traceback's last line
    at: str | None = None  # the innermost frame of the project's own code

    @property
    def server_error(self) -> bool:
        return self.error is not None or self.status >= 500


def request(client: Client, method: str, path: str, **data) -> Answer:
    """The answer read to its end: an export is streamed, and fails, if at all, while it is
    written."""
    try:
        response = getattr(client, method)(path, **data)
        content = response.getvalue()
    except Exception as error:  # noqa: BLE001 - every exception of a request is a finding
        return Answer(500, error=last_line(error), at=project_frame(error))
    return Answer(response.status_code, content)


def last_line(error: BaseException) -> str:
    lines = traceback.format_exception_only(type(error), error)
    text = "".join(lines).strip().splitlines()
    return (text[-1] if text else type(error).__name__)[:300]


def project_frame(error: BaseException) -> str | None:
    root = str(ROOT) + "/"
    frames = [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if f.filename.startswith(root) and "/.venv/" not in f.filename
    ]
    if not frames:
        return None
    frame = frames[-1]
    return f"{frame.filename[len(root) :]}:{frame.lineno} {frame.name}"


# --- the base league ------------------------------------------------------------------------


def fuzz_user():
    user, _created = get_user_model().objects.get_or_create(username="fuzzer", defaults={"first_name": "Fuzzer"})
    return user


def base_export() -> dict:
    """The demo league (seed_demo), with what an evening can carry besides hands added through
    the app's services (a corrected, a deleted and a discarded hand, reopenings with their
    reasons, an evening copied from paper, a club night of two tables), exported; each
    evening cut to its first hands."""
    call_command("seed_demo", "--if-empty", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    demo = League.objects.get(slug=SLUG)
    _enrich(demo, demo.memberships.get(role=Role.ADMIN, user__username="demo").user)
    data = exported(demo)
    meetings = data["meetings"]
    data["meetings"] = [meetings[i] for i in KEPT_EVENINGS]
    for meeting in data["meetings"]:
        meeting["hands"] = [h for h in meeting["hands"] if h["position"] <= HANDS_PER_EVENING]
    return data


def _enrich(demo: League, admin) -> None:
    last = demo.meetings.order_by("date", "id").last()
    seasons_services.reopen_season(season=demo.seasons.get(number=1), user=admin, reason="Die Rechnung war falsch")
    table_meetings.reopen_meeting(meeting=last, user=admin, reason="Ein Spiel war falsch notiert")
    hands = list(Hand.objects.filter(meeting=last).live().order_by("position"))
    # Five at the table: the hand five later has the same player sitting out.
    table_services.change_hand(hand=hands[1], payload=hands[6].payload, by=admin, version=hands[1].version)
    # From the last one back (a hand deleted before others would change who sits out of
    # them), down to the last that the base file keeps.
    for hand in reversed(hands[HANDS_PER_EVENING - 1 :]):
        table_services.delete_hand(hand=hand, by=admin, version=hand.version)
    table_services.discard_offline_hand(
        meeting=last, payload=hands[0].payload, by=admin, key=uuid.uuid4(), entered_as=1
    )
    names = list(demo.players.order_by("name").values_list("name", flat=True))[:4]
    day = timezone.localdate() - datetime.timedelta(days=1)
    text = f"date,host,{','.join(names)}\n{day.isoformat()},{names[0]},12,-4,-8,0\n"
    paper_import.run(league=demo, kind="totals", text=text, user=admin, commit=True)
    _club_night(demo, admin)


def _club_night(demo: League, admin) -> None:
    """Tonight at two tables of four (three guests join the demo's five), combined by
    placings, hosted by a player of table 2; a hand at each table."""
    League.objects.filter(pk=demo.pk).update(combine_tables=Combine.PLACINGS)
    demo.refresh_from_db()
    guests = [Player.objects.create(league=demo, name=name) for name in ("Fiete", "Greta", "Ole")]
    players = [*demo.players.exclude(pk__in=[g.pk for g in guests]).order_by("name"), *guests]
    night = nights.open_club_night(
        league=demo, date=timezone.localdate(), host=players[5], tables=[players[:4], players[4:8]], user=admin
    )
    for table in night.tables.order_by("table_number"):
        seated = [seat.player.name for seat in table.seats.order_by("position")]
        payload = {"kind": "normal", "re": seated[1:3], "re_eyes": 131}
        table_services.enter_hand(meeting=table, payload=payload, by=admin)


# --- one file through the import page ---------------------------------------------------------


def import_file(client: Client, content: bytes, slug: str) -> Answer:
    upload = SimpleUploadedFile("league.json", content, content_type="application/json")
    return request(client, "post", "/leagues/import/", data={"file": upload, "name": f"Fuzz {slug}", "slug": slug})


@dataclass(frozen=True)
class Focus:
    """The part of a file a mutation changed, and so the pages that can show it: the league's
    own pages always; a season's pages when seasons or meetings changed; the players' pages
    when players or meetings did; a meeting's pages when it (by its place in the file) or
    what every meeting shows (the league, the players, the seasons: the first meeting) did.
    ``None`` (a whole file, several changes): every page."""

    parts: frozenset[str]
    meetings: frozenset[int]

    @classmethod
    def of(cls, paths) -> Focus | None:
        paths = list(paths)
        if len(paths) != 1 or not paths[0] or paths[0][0] in ("league", "format", "version"):
            return None
        path = paths[0]
        index = path[1] if path[0] == "meetings" and len(path) > 1 and isinstance(path[1], int) else None
        return cls(frozenset([path[0]]), frozenset() if index is None else frozenset([index]))

    def shows(self, part: str) -> bool:
        return part in self.parts or "meetings" in self.parts or (part == "seasons" and "players" in self.parts)

    def meeting_indices(self, count: int) -> list[int]:
        if "meetings" in self.parts:
            return sorted(i for i in self.meetings if i < count) or list(range(count))
        return [0] if count else []


def pages(league: League, focus: Focus | None = None) -> list[str]:
    """The pages of ``league`` a member and a visitor of its public link can open (those
    that can show what ``focus`` changed)."""
    base = f"/l/{league.slug}"
    api = f"/api/v1/leagues/{league.slug}"
    token = clubs_services.set_public_link(league=league, enabled=True).public_token
    found = [f"{base}/", f"{base}/standings/", f"{base}/activity/", f"{base}/statistics/", f"{base}/ratings/"]
    found += [f"{base}/house-rules/", f"{base}/export.json", f"{base}/export.csv", f"{api}/export/"]
    found += [f"{base}/meetings/new/", f"{base}/import-paper/", f"/p/{token}/"]
    if focus is None or focus.shows("players"):
        found += [f"{base}/statistics/player/{pk}/" for pk in league.players.values_list("pk", flat=True)]
    if focus is None or focus.shows("seasons"):
        # A season without an evening's results has no bill to split and nothing to
        # recompute: those two pages are a 404 by design (leagues/seasons/views/bill.py, what_if.py).
        scored = set(league.meeting_results.values_list("season__number", flat=True).distinct())
        for number in league.seasons.values_list("number", flat=True):
            found += [f"{base}/standings/?season={number}", f"{base}/seasons/{number}/report/"]
            found.append(f"/p/{token}/seasons/{number}/report/")
            if number in scored:
                found += [f"{base}/seasons/{number}/bill/", f"{base}/seasons/{number}/what-if/"]
    if focus is None or focus.shows("club_nights"):
        for pk in league.club_nights.values_list("pk", flat=True):
            found += [f"{base}/n/{pk}/", f"{base}/n/{pk}/live/", f"/p/{token}/n/{pk}/live/"]
            found.append(f"{api}/club-nights/{pk}/")
    # In the order of the file: the import makes them one after the other.
    meetings = list(league.meetings.order_by("id").values_list("pk", flat=True))
    picked = range(len(meetings)) if focus is None else focus.meeting_indices(len(meetings))
    for pk in [meetings[i] for i in picked][:PAGED_MEETINGS]:
        found += [f"{base}/m/{pk}/", f"{base}/m/{pk}/history/", f"{base}/m/{pk}/house-rules/"]
        found += [f"{api}/meetings/{pk}/", f"/p/{token}/m/{pk}/"]
        hands = list(Hand.objects.filter(meeting_id=pk).order_by("position").values_list("pk", flat=True))
        found += [f"{base}/m/{pk}/h/{hand}/" for hand in sorted(set(hands[:1] + hands[-1:]))]
    return found


def broken_pages(client: Client, league: League, focus: Focus | None = None) -> list[tuple[str, Answer]]:
    """The pages of ``league`` (that can show what ``focus`` changed) that do not answer 200."""
    broken = []
    for path in pages(league, focus):
        answer = request(client, "get", path)
        if answer.status != 200:
            broken.append((path, answer))
    return broken


def comparable(export: dict) -> dict:
    """``export`` without what an import cannot keep (NOT_KEPT). Shallow copies only: a
    payload nested hundreds deep is compared, never copied level by level."""
    return _without(export, NOT_KEPT)


def _without(data, paths):
    if not isinstance(data, dict | list):
        return data
    heads = {path[0] for path in paths}
    if isinstance(data, list):
        rest = {path[1:] for path in paths if path[0] == "*" and len(path) > 1}
        return [_without(item, rest) for item in data] if rest else data
    kept = {}
    for key, value in data.items():
        deeper = {path[1:] for path in paths if path[0] == key and len(path) > 1}
        if key in heads and not deeper:
            continue
        kept[key] = _without(value, deeper) if deeper else value
    return kept


def round_trip_problem(client: Client, league: League) -> str | None:
    """Why exporting ``league``, importing that file and exporting the copy does not give the
    same file (modulo what an import cannot keep), or None."""
    first = request(client, "get", f"/l/{league.slug}/export.json")
    if first.status != 200:
        return f"export: {first.status} {first.error or ''}"
    slug = f"{league.slug}-rt"
    again = import_file(client, first.content, slug)
    if again.status != 302:
        return f"re-import: {again.status} {again.error or _form_error(again.content)}"
    second = request(client, "get", f"/l/{slug}/export.json")
    if second.status != 200:
        return f"export of the copy: {second.status} {second.error or ''}"
    a, b = comparable(json.loads(first.content)), comparable(json.loads(second.content))
    if a != b:
        return f"the copy's export differs: {first_difference(a, b)}"
    return None


def first_difference(a, b, path="") -> str:
    if type(a) is not type(b):
        return f"{path or '(the file)'}: {str(a)[:60]!r} != {str(b)[:60]!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:60]!r} != {str(b)[:60]!r}"


def _form_error(content: bytes) -> str:
    text = content.decode(errors="replace")
    start = text.find("errorlist")
    return text[start : start + 200] if start >= 0 else text[:200]


def verify_problems(league: League) -> list[str]:
    _checked, problems = verify.verify_replays(league=league)
    return [str(p) for p in problems]
