"""Shared by the tests of accounts under attack: the limits counted in the database, each over
a day's window here (so that no test straddles the end of a window), and a user with a mailbox."""

import time

import pytest
from django.conf import settings as django_settings

from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def rates(settings):
    # The day's windows start at midnight UTC: a run that close to it waits for the next day.
    seconds_to_midnight = 86400 - time.time() % 86400
    if seconds_to_midnight < 120:
        time.sleep(seconds_to_midnight + 1)
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            "anon": None,
            "user": None,
            "login_account": "30/day",
            "invalid_token": "20/day",
            "reset_mail_account": "3/day",
            "reset_mail_address": "10/day",
        },
    }


@pytest.fixture
def anna(db):
    return UserFactory(username="anna", first_name="Anna", email="anna@example.org")
