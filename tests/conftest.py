import os

import pytest
from hypothesis import HealthCheck, settings

# A fixture for the migration tests (tests/test_migration_*.py), migrating back and forth.
from tests.migrations import back_to_latest  # noqa: F401

# Property tests: no per-example deadline (CI machines are shared and slow at times), and in
# CI a fixed sequence of examples, so that a run is repeatable and never flaky.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


# Browser walks and benchmarks are slow: `make test` runs them (CI), `make test-fast` does not.
SLOW_FOLDERS = ("tests/browser/", "tests/bench/")


def pytest_collection_modifyitems(items):
    for item in items:
        if any(folder in str(item.fspath) for folder in SLOW_FOLDERS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _site_language():
    """Every test starts in the site's language: a request in German leaves German active in
    its thread, and a later test would read its messages in German."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)
