"""Settings come from the environment: they refuse to start in production without a secret key,
and with debug off `manage.py check --deploy` has nothing to say that a proxy does not cover.

Each case runs Django in a fresh process with a clean environment, as a server would start.
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUP = "import django; django.setup(); from django.conf import settings; print('DEBUG', settings.DEBUG)"


def run(args, **env):
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DJANGO_SETTINGS_MODULE": "kartenliga.settings", **env}
    return subprocess.run(args, cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = run([sys.executable, "-c", SETUP])
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "DJANGO_SECRET_KEY" in result.stderr


def test_an_empty_secret_key_counts_as_none():
    result = run([sys.executable, "-c", SETUP], DJANGO_SECRET_KEY="", DJANGO_DEBUG="0")
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr


def test_it_starts_without_a_key_while_debugging():
    result = run([sys.executable, "-c", SETUP], DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert "DEBUG True" in result.stdout


def test_it_starts_in_production_with_a_key():
    result = run([sys.executable, "-c", SETUP], DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode == 0, result.stderr
    assert "DEBUG False" in result.stdout


def test_the_deploy_check_reports_nothing_with_debug_off_and_a_long_key():
    # HSTS preload (security.W021) is silenced on purpose: binding a domain to HTTPS for good
    # is the operator's decision (DJANGO_HSTS_PRELOAD=1, or at the proxy), see settings.py.
    result = run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="kartenliga.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
