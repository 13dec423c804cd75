"""The paper import's file is hostile input: whatever the csv module or json cannot read,
and whatever lies beyond the documented limits (leagues/exchange/paper_reading.py, the README's
"Limits"), is refused with a message naming row and column, a 400 on the page and
nothing stored; a file of many players takes time in proportion to them."""

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues.exchange import paper_import, paper_reading
from leagues.models import Meeting, Player, Role
from tests.factories import LeagueFactory, PlayerFactory, UserFactory, member

pytestmark = pytest.mark.django_db

TOTALS = "date,host,Ann,Ben,Cem,Dora\n2024-01-12,Ann,30,-10,-20,0\n"
HANDS_HEAD = "date,players,payload\n2024-03-01,Ann|Ben|Cem|Dora,"


@pytest.fixture
def league():
    return LeagueFactory()


def refused(league, text, kind="totals"):
    """(row, column) of each problem and the messages, after checking nothing was stored."""
    players = Player.objects.count()
    with pytest.raises(paper_import.PaperImportProblem) as caught:
        paper_import.run(league=league, kind=kind, text=text, user=UserFactory(), commit=True)
    assert not Meeting.objects.exists() and Player.objects.count() == players
    errors = caught.value.errors
    return [(e.row, e.column) for e in errors], [str(e) for e in errors]


def post(client, league, text, kind="totals"):
    client.force_login(member(league, Role.ADMIN))
    url = reverse("paper_import", kwargs={"slug": league.slug})
    upload = SimpleUploadedFile("season.csv", text.encode(), content_type="text/csv")
    return client.post(url, {"kind": kind, "file": upload})


def one_evening_of(count):
    """A totals file naming ``count`` new players, all at one table (as a probe sent it)."""
    names = [f"P{i:05d}" for i in range(count)]
    return "date,host," + ",".join(names) + "\n2024-01-12,P00000," + ",".join("1" for _ in names) + "\n"


# --- what the csv module cannot read ----------------------------------------------------------


def test_it_names_a_carriage_return_outside_quotes_in_the_header(league):
    where, messages = refused(league, TOTALS.replace("Ben", "B\ren"))
    assert where == [(1, "D")]
    assert "line break" in messages[0] and messages[0].startswith("Row 1, column “D”: ")


def test_the_page_answers_a_carriage_return_outside_quotes_with_400(client, league):
    response = post(client, league, TOTALS.replace("Ben", "B\ren"))
    assert response.status_code == 400
    assert "Row 1, column “D”" in response.content.decode()
    assert not Meeting.objects.exists()


def test_it_names_a_carriage_return_outside_quotes_in_a_row_by_its_column(league):
    where, _messages = refused(league, TOTALS.replace("-20", "-2\r0"))
    assert where == [(2, "Cem")]


def test_it_reads_a_file_whose_lines_end_in_a_carriage_return(league):
    outcome = paper_import.run(
        league=league, kind="totals", text=TOTALS.replace("\n", "\r"), user=UserFactory(), commit=True
    )
    assert outcome.evenings[0].totals == [("Ann", 30), ("Ben", -10), ("Cem", -20), ("Dora", 0)]


def test_it_names_a_cell_beyond_the_csv_modules_field_limit(league):
    where, messages = refused(league, TOTALS.replace("-20", "1" * 131_073))
    assert where == [(2, "Cem")]
    assert messages[0] == f"Row 2, column “Cem”: A cell holds at most {paper_reading.MAX_CELL} characters."


def test_the_page_answers_a_cell_beyond_the_csv_modules_field_limit_with_400(client, league):
    response = post(client, league, TOTALS.replace("-20", '"' + "1" * 131_073 + '"'))
    assert response.status_code == 400
    assert "Row 2, column “Cem”" in response.content.decode()


def test_it_names_a_cell_longer_than_the_limit(league):
    long_name = "A" * (paper_reading.MAX_CELL + 1)
    where, _messages = refused(league, TOTALS.replace("Dora", long_name))
    assert where == [(1, "F")]


# --- a hand as JSON -------------------------------------------------------------------------


def test_it_refuses_a_payload_nested_deeper_than_python_recurses(league):
    # Within the cell limit, and deeper than json.loads can recurse.
    depth = paper_reading.MAX_CELL // 2 - 10
    where, messages = refused(league, HANDS_HEAD + "[" * depth + "]" * depth + "\n", kind="hands")
    assert where == [(2, "payload")]
    assert f"at most {paper_reading.MAX_JSON_DEPTH} levels" in messages[0]


def test_it_refuses_a_payload_nested_one_level_too_deep(league):
    deep = '"{""kind"": ""normal"", ""x"": ' + "[" * paper_reading.MAX_JSON_DEPTH + "]" * paper_reading.MAX_JSON_DEPTH
    where, _messages = refused(league, HANDS_HEAD + deep + '}"\n', kind="hands")
    assert where == [(2, "payload")]


def test_brackets_inside_a_payloads_strings_do_not_count_as_nesting(league):
    assert not paper_reading.json_too_deep('{"kind": "normal", "note": "[[[[[[[[[[[[\\"[[[[[[[[[[[[", "re": [["Ann"]]}')
    assert paper_reading.json_too_deep("[" * 11)


def test_the_page_answers_a_payload_nested_60000_deep_with_400(client, league):
    response = post(client, league, HANDS_HEAD + '"' + "[" * 60_000 + "]" * 60_000 + '"\n', kind="hands")
    assert response.status_code == 400
    assert "Row 2, column “payload”" in response.content.decode()
    assert not Meeting.objects.exists()


# --- the limits -----------------------------------------------------------------------------


def test_it_refuses_more_rows_than_the_limit(league):
    rows = "".join(f"2024-01-{1 + i % 28:02d},Ann,1,2,3,4\n" for i in range(paper_reading.MAX_ROWS + 1))
    where, messages = refused(league, "date,host,Ann,Ben,Cem,Dora\n" + rows)
    assert where == [(paper_reading.MAX_ROWS + 2, None)]
    assert "second file" in messages[0]


def test_it_refuses_a_file_naming_more_players_than_the_limit(client, league):
    started = time.perf_counter()
    response = post(client, league, one_evening_of(20_000))
    assert response.status_code == 400
    assert time.perf_counter() - started < 5  # was the worker's timeout
    assert f"Row 1, column “{paper_reading.column_letter(paper_reading.MAX_COLUMNS)}”" in response.content.decode()


def test_it_refuses_an_evening_with_more_hands_than_the_limit(league):
    hand = '"{""kind"": ""normal"", ""re"": [""Ann"", ""Ben""], ""re_eyes"": 150}"\n'
    text = HANDS_HEAD + hand + "".join(",," + hand for _ in range(paper_reading.MAX_HANDS_PER_EVENING))
    where, _messages = refused(league, text, kind="hands")
    assert where == [(paper_reading.MAX_HANDS_PER_EVENING + 2, "players")]


def test_a_page_lists_the_first_problems_of_a_file_full_of_them(client, league):
    rows = "".join(f"2024-01-{1 + i % 28:02d},Ann,x,x,x,x\n" for i in range(500))
    response = post(client, league, "date,host,Ann,Ben,Cem,Dora\n" + rows)
    assert response.status_code == 400
    page = response.content.decode()
    assert page.count("<li>Row ") == paper_reading.MAX_PROBLEMS
    assert "the first 100 are listed" in page


# --- many players: in proportion to them ------------------------------------------------------


def test_a_file_of_2000_new_players_is_answered_in_a_moment(client, league):
    started = time.perf_counter()
    response = post(client, league, one_evening_of(2_000))
    elapsed = time.perf_counter() - started
    assert response.status_code == 400  # no game seats 2,000 at one table
    assert "Row 2, column “players”" in response.content.decode()
    assert elapsed < 5  # took 23 s, its names compared with each other
    assert not Player.objects.filter(name__startswith="P0").exists()


def test_new_players_are_checked_against_each_other_and_the_league(league):
    PlayerFactory(league=league, name="Emil")
    # A Cyrillic "А" beside a Latin one, and a full-width "Ｅmil" beside the league's Emil.
    text = "date,host,Anna,\u0410nna,\uff25mil,Ben\n2024-01-12,Anna,1,2,3,4\n"
    where, messages = refused(league, text)
    assert where == [(2, "\u0410nna"), (2, "\uff25mil")]
    assert "looks too much like “Anna”" in messages[0] and "“Emil”" in messages[1]


def test_many_new_players_are_stored_with_their_evenings(league):
    names = [f"Spieler {i}" for i in range(40)]
    rows = []
    for evening in range(10):
        cells = [""] * 40
        for seat in range(4):
            cells[evening * 4 + seat] = str(seat)
        rows.append(f"2024-01-{evening + 1:02d},{names[evening * 4]}," + ",".join(cells))
    text = "date,host," + ",".join(names) + "\n" + "\n".join(rows) + "\n"
    outcome = paper_import.run(league=league, kind="totals", text=text, user=UserFactory(), commit=True)
    assert sorted(outcome.new_players) == sorted(names)
    assert sorted(league.players.values_list("name", flat=True)) == sorted(names)
    assert Meeting.objects.filter(league=league).count() == 10
    assert outcome.evenings[3].totals == [(names[12], 0), (names[13], 1), (names[14], 2), (names[15], 3)]


def test_the_page_states_the_limits(client, league):
    client.force_login(member(league, Role.ADMIN))
    page = client.get(reverse("paper_import", kwargs={"slug": league.slug})).content.decode()
    assert f"{paper_reading.MAX_ROWS} rows below the first" in page
    assert f"{paper_reading.MAX_CELL} characters in a cell" in page
    assert f"nested at most {paper_reading.MAX_JSON_DEPTH} levels deep" in page
