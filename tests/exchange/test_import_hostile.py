"""A league export is hostile input: whatever is wrong in it is a 400 naming its place in the
file, with nothing stored; whatever is accepted can be shown, exported, imported again and
verified."""

import copy
import json
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from leagues.exchange import import_checks
from leagues.management.commands.seed_demo import SLUG
from leagues.models import League
from leagues.table import verify
from tests.exchange.files import exported, imported
from tests.exchange.hostile import FUZZED, HOSTILE, failing_pages
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


_DEMO_EXPORT = {}


@pytest.fixture
def export():
    """The demo league's export, as JSON would give it back. Built once (seeding the demo takes
    seconds); each test gets a copy of its own, and no test needs the demo league itself."""
    if not _DEMO_EXPORT:
        call_command("seed_demo", "--if-empty", stdout=StringIO())
        _DEMO_EXPORT["file"] = json.dumps(exported(League.objects.get(slug=SLUG)))
    return json.loads(_DEMO_EXPORT["file"])


def post(client, body: bytes, slug="kopie"):
    upload = SimpleUploadedFile("league.json", body, content_type="application/json")
    return client.post(reverse("league_import"), {"file": upload, "name": "Kopie", "slug": slug})


def file_errors(response) -> list[str]:
    return response.context["form"].errors.get("file", [])


@pytest.mark.parametrize("change", [c for _what, c in HOSTILE + FUZZED], ids=[what for what, _c in HOSTILE + FUZZED])
def test_it_refuses_a_hostile_value_naming_where_and_stores_nothing(client, export, change):
    client.force_login(UserFactory())
    leagues = League.objects.count()
    response = post(client, json.dumps(change(copy.deepcopy(export))).encode())
    assert response.status_code == 400
    errors = file_errors(response)
    # The message names the place in the file: "meetings[1].closed_at: ..."
    assert errors and errors[0].split(":")[0].split(".")[0].split("[")[0] in {"players", "seasons", "meetings"}
    assert League.objects.count() == leagues


@pytest.mark.parametrize(
    "body",
    [b"[" * 200_000, b'{"a":' * 100_000, json.dumps({"format": json.loads("[" * 40 + "]" * 40)}).encode()],
    ids=["200,000 [", "100,000 objects deep", "40 deep"],
)
def test_it_refuses_a_file_nested_too_deep(client, body):
    client.force_login(UserFactory())
    response = post(client, body)
    assert response.status_code == 400
    assert "nested" in file_errors(response)[0]


def test_a_nul_is_named_by_its_first_place_in_the_file(export):
    export["players"][0]["name"] = "Bir\x00git"
    with pytest.raises(import_checks.ImportProblem) as error:
        imported(export, user=UserFactory(), name="X", slug="x")
    assert error.value.errors[0]["message"].startswith("players[1].name: ")


def test_the_command_refuses_a_file_above_its_limit(tmp_path, monkeypatch, export):
    UserFactory(username="admin")
    path = tmp_path / "league.json"
    path.write_text(json.dumps(export))
    monkeypatch.setattr(import_checks, "MAX_FILE_BYTES", 1000)
    with pytest.raises(CommandError, match="too large"):
        call_command("import_league", str(path), "--name", "X", "--slug", "x", "--admin", "admin")
    path.write_bytes(b"[" * 200_000)
    monkeypatch.setattr(import_checks, "MAX_FILE_BYTES", 1_000_000)
    with pytest.raises(CommandError, match="nested"):
        call_command("import_league", str(path), "--name", "X", "--slug", "x", "--admin", "admin")
    assert not League.objects.filter(slug="x").exists()


def test_a_history_reason_the_app_never_writes_is_refused(export):
    # An outbox choice whose number is not an ASCII number ("²") once broke the activity page.
    export["meetings"][0]["hands"][0]["history"][0]["reason"] = "outbox:keep:²"
    with pytest.raises(import_checks.ImportProblem) as error:
        imported(export, user=UserFactory(), name="X", slug="x")
    assert error.value.errors[0]["message"].startswith("meetings[1].hands[1].history[1].reason")


def test_an_unknown_game_is_refused(export):
    export["league"]["game"] = "skat"
    with pytest.raises(import_checks.ImportProblem) as error:
        imported(export, user=UserFactory(), name="X", slug="x")
    assert error.value.errors[0]["message"].startswith("league.game")


def test_what_it_accepts_is_shown_exported_imported_again_and_verified(client, export):
    user = UserFactory()
    client.force_login(user)
    assert post(client, json.dumps(export).encode()).status_code == 302
    copied = League.objects.get(slug="kopie")
    assert failing_pages(client, copied) == []
    _count, problems = verify.verify_replays(league=copied)
    assert problems == []
    again = client.get(reverse("league_export_json", kwargs={"slug": "kopie"})).getvalue()
    assert post(client, again, slug="kopie-2").status_code == 302
    second = exported(League.objects.get(slug="kopie-2"))
    first = exported(copied)
    for data in (first, second):
        data.pop("exported_at")
        data["league"].pop("slug")
        for meeting in data["meetings"]:
            meeting.pop("created_at")
    assert second == first


def test_the_command_takes_a_name_and_short_name_as_the_page_does(tmp_path, export):
    UserFactory(username="admin")
    League.objects.get_or_create(slug=SLUG, defaults={"name": "Stammtisch", "game": "doppelkopf"})
    path = tmp_path / "league.json"
    path.write_text(json.dumps(export))
    with pytest.raises(CommandError, match="slug"):
        call_command("import_league", str(path), "--name", "X", "--slug", SLUG, "--admin", "admin")
    with pytest.raises(CommandError, match="name"):
        call_command("import_league", str(path), "--name", "x" * 101, "--slug", "x", "--admin", "admin")
    call_command(
        "import_league", str(path), "--name", "Kopie", "--slug", "kopie", "--admin", "admin", stdout=StringIO()
    )
    assert League.objects.get(slug="kopie").name == "Kopie"


def test_an_earlier_version_the_game_cannot_read_is_kept_and_shown(client, export):
    # Only the live hands are replayed; an earlier version is shown as it is stored.
    export["meetings"][0]["hands"][0]["history"][0]["payload"]["re"] = True
    client.force_login(UserFactory())
    assert post(client, json.dumps(export).encode()).status_code == 302
    copied = League.objects.get(slug="kopie")
    assert failing_pages(client, copied) == []
