"""The tokens page in German: revoking a token is "Widerrufen", not the Doppelkopf hand kind
"Revoke" (a card not followed, "Falsch bedient") that shares its English word."""

import pytest
from django.urls import reverse

from leagues.accounts.tokens import create_token
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_revoke_button_speaks_of_the_token(client):
    user = UserFactory()
    create_token(user=user, name="Skript", days=30)
    client.force_login(user)
    page = client.get(reverse("api_tokens"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Widerrufen" in page
    assert "Falsch bedient" not in page
