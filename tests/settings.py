"""The test suite's settings: production's (debug off), over plain HTTP and without
collectstatic. Environment defaults must be in place before kartenliga.settings reads them."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-" + "x" * 40)
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
# The suite fires thousands of API requests from one address: no rate limits by accident.
# tests/api/test_api_throttling.py sets its own.
os.environ.setdefault("KARTENLIGA_THROTTLE_ANON", "off")
os.environ.setdefault("KARTENLIGA_THROTTLE_USER", "off")

from kartenliga.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, tests only
