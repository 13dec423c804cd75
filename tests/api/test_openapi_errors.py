"""Every operation of the OpenAPI schema documents the errors that can answer it, in the API's
error shape: schemathesis found 403 and 404 answers the schema did not mention."""

import pytest

ERRORS_REF = "#/components/schemas/Errors"
METHODS = {"get", "put", "post", "delete", "patch"}


@pytest.fixture
def schema(client, db):
    response = client.get("/api/v1/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def operations(schema):
    for path, items in schema["paths"].items():
        for method, operation in items.items():
            if method in METHODS:
                yield path, method, operation


def needs_login(operation):
    return {} not in operation.get("security", [{}])


def test_the_schema_has_every_operation(schema):
    found = {operation["operationId"] for _path, _method, operation in operations(schema)}
    # The stateless three, and the league API: every one is walked below.
    assert {"calculate", "bill_split", "ping", "leagues_list", "meeting_read", "meeting_hand_add"} <= found


def test_every_operation_documents_413_and_429(schema):
    for path, method, operation in operations(schema):
        responses = operation["responses"]
        assert {"413", "429"} <= set(responses), (method, path)
        assert "Retry-After" in responses["429"]["headers"], (method, path)


def test_every_operation_that_needs_a_login_documents_403(schema):
    checked = 0
    for path, method, operation in operations(schema):
        if needs_login(operation):
            assert "403" in operation["responses"], (method, path)
            checked += 1
    assert checked >= 5


def test_every_operation_on_a_league_documents_404_and_every_write_409(schema):
    checked = 0
    for path, method, operation in operations(schema):
        if "{slug}" in path:
            checked += 1
            assert "404" in operation["responses"], (method, path)
            if method != "get":
                assert "409" in operation["responses"], (method, path)
    assert checked >= 4


def test_every_operation_that_takes_a_body_documents_400(schema):
    for path, method, operation in operations(schema):
        if "requestBody" in operation:
            assert "400" in operation["responses"], (method, path)


def test_every_error_answer_has_the_error_shape_and_a_description(schema):
    for path, method, operation in operations(schema):
        for status, response in operation["responses"].items():
            if int(status) >= 400:
                assert response["content"]["application/json"]["schema"] == {"$ref": ERRORS_REF}, (method, path, status)
                assert response["description"], (method, path, status)
    error = schema["components"]["schemas"]["Error"]
    assert set(error["properties"]) == {"hand", "field", "message"}
    assert schema["components"]["schemas"]["Errors"]["properties"]["errors"]["items"] == {
        "$ref": "#/components/schemas/Error"
    }


def test_the_stateless_endpoints_are_not_said_to_answer_403_or_404(schema):
    for path in ("/api/v1/calculate/", "/api/v1/bill-split/", "/api/v1/ping/"):
        assert not {"403", "404", "409"} & set(schema["paths"][path]["post"]["responses"]), path


def test_what_a_view_declares_is_kept(schema):
    # The calculate view declares its own 400 (a hand that does not replay) and 200: both stay.
    responses = schema["paths"]["/api/v1/calculate/"]["post"]["responses"]
    assert responses["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/CalculateOutput"}
    assert responses["400"]["content"]["application/json"]["schema"] == {"$ref": ERRORS_REF}


def test_the_documented_answers_are_the_real_ones(client, schema, db):
    # Anonymous: the league API answers 403, as documented; the schema says the same.
    response = client.get("/api/v1/leagues/")
    assert response.status_code == 403
    assert set(response.json()) == {"errors"}
    assert "403" in schema["paths"]["/api/v1/leagues/"]["get"]["responses"]
