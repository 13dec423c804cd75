"""The import fuzzer's mutations (tests/fuzz/mutations.py): every field of a document gets
the catalogue of its kind, the random part is the same for the same seed, and a mutation
never touches the document it was made from."""

import json

from tests.fuzz import mutations

EXPORT = {
    "format": "kartenliga-league",
    "version": 1,
    "players": [{"name": "Anna", "active": True}, {"name": "Ben", "active": True}],
    "seasons": [{"number": 1, "started_on": "2026-11-06", "locked_at": None, "bills": []}],
    "meetings": [
        {"date": "2026-11-06", "end_time": "23:30:00", "closed_at": "2026-11-06T23:40:00+00:00", "hands": []},
        {"date": "2026-11-13", "end_time": None, "closed_at": None, "hands": [{"payload": {"eyes": {"Anna": 1}}}]},
    ],
}


def test_each_field_of_the_first_of_its_kind_gets_the_catalogue_of_its_kind():
    found = mutations.exhaustive(EXPORT)
    by_field = {}
    for mutation in found:
        by_field.setdefault(mutation.where, set()).add(mutation.what)
    assert {"30 February", "year 0", "nul inside", "null", "dropped"} <= by_field["meetings[0].date"]
    assert {"year 1 at +14:00", "25:61"} <= by_field["meetings[0].closed_at"] | by_field["meetings[0].end_time"]
    assert {"2^31", "-2^31-1", "as text"} <= by_field["seasons[0].number"]
    assert {"rtl override", "zero-width space", "cyrillic look-alike", "full-width"} <= by_field["players[0].name"]
    assert {"nested 900 deep", "first 300 times", "doubled"} <= by_field["players"] | by_field["players[0]"]
    # The second meeting is the same fields again: only the first of each is mutated.
    assert "meetings[1].date" not in by_field
    # A key that is a player's name is one field, whoever it is.
    assert "meetings[1].hands[0].payload.eyes.Anna" in by_field


def test_a_mutation_changes_a_copy_and_names_where():
    mutation = next(m for m in mutations.exhaustive(EXPORT) if (m.where, m.what) == ("meetings[0].date", "year 0"))
    data = json.loads(mutation.file(EXPORT))
    assert data["meetings"][0]["date"] == "0000-01-01"
    assert EXPORT["meetings"][0]["date"] == "2026-11-06"


def test_a_lone_surrogate_reaches_the_file_as_an_escape_python_reads():
    mutation = next(m for m in mutations.exhaustive(EXPORT) if m.what == "lone surrogate")
    read = json.loads(mutation.file(EXPORT))
    assert any(isinstance(value, str) and "\ud800" in value for _path, value in mutations.walk(read))


def test_the_random_part_is_the_same_for_the_same_seed():
    first = mutations.seeded(EXPORT, count=20, seed=7)
    assert [m.what for m in first] == [m.what for m in mutations.seeded(EXPORT, count=20, seed=7)]
    assert [m.what for m in first] != [m.what for m in mutations.seeded(EXPORT, count=20, seed=8)]
    for mutation in first:  # each builds its file, whatever it dropped before what it sets
        mutation.file(EXPORT)
