"""A league with one member of each role, and a stranger (a member of another league)."""

import pytest

from leagues.models import Role
from tests.factories import LeagueFactory, member


@pytest.fixture
def league(db):
    return LeagueFactory(slug="kasse")


@pytest.fixture
def people(league):
    """{who: user or None}: the rows of every access matrix."""
    return {
        "anonymous": None,
        "stranger": member(LeagueFactory(), Role.ADMIN),
        "member": member(league, Role.MEMBER),
        "scorekeeper": member(league, Role.SCOREKEEPER),
        "admin": member(league, Role.ADMIN),
    }


def login(client, people, who):
    client.logout()
    if people[who] is not None:
        client.force_login(people[who])
