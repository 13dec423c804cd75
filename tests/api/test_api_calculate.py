"""POST /api/v1/calculate/: the sitting-level checks and the error shape every client relies on
(shared/spec/calculate-api.md, "Errors 400"). Each game's hand checks live in tests/scoring/."""

import json

import pytest

URL = "/api/v1/calculate/"
FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def post(client, body, raw=False):
    data = body if raw else json.dumps(body)
    return client.post(URL, data=data, content_type="application/json")


def errors(response):
    assert response.status_code == 400, response.content
    return [(e["hand"], e["field"]) for e in response.json()["errors"]]


def test_it_needs_no_login_and_no_csrf_token():
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = post(client, {"game": "doppelkopf", "players": FIVE, "hands": []})
    assert response.status_code == 200


def test_an_empty_sitting_gives_the_default_preset_and_zero_totals(client):
    # "variant omitted: the game's default preset (doppelkopf club)"; totals at the top are
    # the starting totals when there are no hands; the host deals first.
    body = post(client, {"game": "doppelkopf", "players": FIVE, "hands": []}).json()
    assert body["game"] == "doppelkopf"
    assert body["variant"] == "club"
    assert body["parties"] == FIVE
    assert body["hands"] == []
    assert body["totals"] == dict.fromkeys(FIVE, 0)
    assert body["next"]["dealer"] == "Anna"
    assert body["rules"]["solo_point"] is True


def test_it_rejects_malformed_json_with_a_null_field(client):
    assert errors(post(client, '{"game": "doppelkopf", ', raw=True)) == [(None, None)]


@pytest.mark.parametrize("body", ["[]", '"doppelkopf"', "42", "null"])
def test_it_rejects_a_body_that_is_not_an_object(client, body):
    assert errors(post(client, body, raw=True)) == [(None, None)]


def test_it_rejects_an_unknown_game(client):
    assert errors(post(client, {"game": "skat", "players": FIVE, "hands": []})) == [(None, "game")]


def test_it_rejects_an_unknown_variant(client):
    assert errors(post(client, {"game": "doppelkopf", "variant": "pub", "players": FIVE, "hands": []})) == [
        (None, "variant")
    ]


def test_it_rejects_an_unknown_option_and_a_wrongly_typed_one(client):
    body = {"game": "doppelkopf", "rules": {"no_such_rule": 1, "solo_point": "yes"}, "players": FIVE, "hands": []}
    assert errors(post(client, body)) == [(None, "rules"), (None, "rules")]


@pytest.mark.parametrize("players", [["A", "B", "C"], ["A", "B", "C", "D", "E", "F", "G"]])
def test_it_rejects_3_or_7_players_for_doppelkopf(client, players):
    assert errors(post(client, {"game": "doppelkopf", "players": players, "hands": []})) == [(None, "players")]


def test_it_rejects_duplicate_names(client):
    assert errors(post(client, {"game": "doppelkopf", "players": ["A", "B", "A", "C"], "hands": []})) == [
        (None, "players")
    ]


@pytest.mark.parametrize("players", ["Anna,Ben", [1, 2, 3, 4], ["A", "", "C", "D"], None])
def test_it_rejects_players_that_are_not_a_list_of_names(client, players):
    assert (None, "players") in errors(post(client, {"game": "doppelkopf", "players": players, "hands": []}))


def test_it_rejects_teams_for_doppelkopf_and_penalty_soli_for_45(client):
    assert errors(post(client, {"game": "doppelkopf", "players": FIVE, "teams": {"x": FIVE}, "hands": []})) == [
        (None, "teams")
    ]
    body = {"game": "forty_five", "players": ["A", "B", "C"], "compulsory_solos": ["A"], "hands": []}
    assert errors(post(client, body)) == [(None, "compulsory_solos")]


def test_it_rejects_hands_that_are_not_a_list_or_not_objects(client):
    assert errors(post(client, {"game": "doppelkopf", "players": FIVE, "hands": {}})) == [(None, "hands")]
    assert errors(post(client, {"game": "doppelkopf", "players": FIVE, "hands": [{"kind": "x"}, 7]}))[-1] == (
        2,
        "hands",
    )


def test_it_reports_every_problem_not_only_the_first(client):
    body = {"game": "doppelkopf", "variant": "pub", "rules": {"nope": 1}, "players": ["A"], "hands": 3, "x": 1}
    assert sorted(errors(post(client, body)), key=str) == sorted(
        [(None, "x"), (None, "variant"), (None, "rules"), (None, "players"), (None, "hands")], key=str
    )


def test_it_rejects_a_request_without_hands(client):
    # "a missing field ... always a 400"; an empty list is the way to say "no hands yet".
    assert errors(post(client, {"game": "doppelkopf", "players": FIVE})) == [(None, "hands")]


def test_it_rejects_an_unknown_top_level_field(client):
    assert errors(post(client, {"game": "doppelkopf", "players": FIVE, "hands": [], "seats": 5})) == [(None, "seats")]


def test_messages_are_in_german_when_asked(client):
    response = client.post(
        URL, data=json.dumps({"game": "skat"}), content_type="application/json", HTTP_ACCEPT_LANGUAGE="de"
    )
    message = response.json()["errors"][0]["message"]
    assert message.startswith("Unbekanntes Spiel"), message


def test_get_is_not_allowed(client):
    assert client.get(URL).status_code == 405


def test_the_schema_names_both_endpoints_with_their_shapes(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    for path in ("/api/v1/calculate/", "/api/v1/bill-split/"):
        operation = schema["paths"][path]["post"]
        assert "requestBody" in operation
        assert {"200", "400"} <= set(operation["responses"])


def test_the_api_docs_page_loads_its_assets_locally(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "cdn" not in html.lower()


def test_every_example_in_the_schema_replays(client):
    # The docs show one request per game, made by the engines' own generators: each must be
    # a request the endpoint accepts.
    import importlib

    from leagues.api.views import calculate_examples
    from scoring.registry import GAME_MODULES

    examples = calculate_examples()
    # One generated request per game, and the house-rule requests a game module documents.
    own = sum(
        len(getattr(importlib.import_module(m), "API_EXAMPLES", {}).get(n, ())) for n, (m, _a) in GAME_MODULES.items()
    )
    assert len(examples) == 8 + own and own >= 3
    for example in examples:
        assert post(client, example.value).status_code == 200, example.summary


def _doppelkopf_example(title):
    from scoring.doppelkopf import API_EXAMPLES

    return dict(API_EXAMPLES["doppelkopf"])[title]


def test_the_doppelkopf_house_rule_examples_give_the_figures_worked_out_by_hand(client):
    # announcement_points 1, karlchen_gefangen: Re won 150 (Kontra 90, not under 90):
    # gewonnen 1 + Re angesagt 1 + Karlchen gefangen (Re) 1 = 3 (doppelkopf.md items 1, 3, 8).
    body = post(client, _doppelkopf_example("Re and Kontra worth 1, Karlchen gefangen")).json()
    assert body["rules"]["announcement_points"] == 1 and body["rules"]["karlchen_gefangen"] is True
    assert body["hands"][0]["value"] == 3
    assert body["totals"] == {"Anna": 3, "Ben": 3, "Carl": -3, "Dora": -3}
    # bock_stacking stack: hand 1 split (Bock round 1: hands 2-5), hand 2 split in a Bock game
    # (Bock round 2: hands 3-6): hand 3 counts x4. Hand 1: Kontra (Carl, Dora) 2; hand 2: Kontra
    # (Anna, Ben) 2 x2 = 4; hand 3: Anna, Carl 1 x4 = 4. Anna -2 +4 +4, Ben -2 +4 -4, Carl
    # +2 -4 +4, Dora +2 -4 -4.
    body = post(client, _doppelkopf_example("Stacked Bock rounds")).json()
    assert [h["multiplier"] for h in body["hands"]] == [1, 2, 4]
    assert body["totals"] == {"Anna": 6, "Ben": -2, "Carl": 2, "Dora": -6}
    assert (body["next"]["multiplier"], body["next"]["bock_rounds"]) == (4, [2, 3])
    # kind points: Re won 4 with Kontra announced (kontra_lost: a Bock round); Carl's Damensolo
    # lost 3 in the Bock game: x2 = 6, tripled for the soloist: Carl -18, the others +6.
    body = post(client, _doppelkopf_example("Result only (kind points)")).json()
    assert body["hands"][0]["triggers"] == ["kontra_lost"]
    assert body["hands"][1]["deltas"] == {"Anna": 6, "Ben": 6, "Carl": -18, "Dora": 6}
    assert body["totals"] == {"Anna": 10, "Ben": 10, "Carl": -22, "Dora": 2}


def test_a_bad_points_hand_names_its_fields(client):
    hand = {"kind": "points", "re": ["Anna", "Ben"], "winner": "both", "value": "4", "schwarz": 1}
    response = post(client, {"game": "doppelkopf", "players": FIVE[:4], "hands": [hand]})
    assert sorted(errors(response)) == [(1, "schwarz"), (1, "value"), (1, "winner")]
