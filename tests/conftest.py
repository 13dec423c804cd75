import os

from hypothesis import HealthCheck, settings

# A fixture for the migration tests (tests/test_migration_*.py), migrating back and forth.
from tests.migrations import back_to_latest  # noqa: F401

# Property tests: no per-example deadline (CI machines are shared and slow at times), and in
# CI a fixed sequence of examples, so that a run is repeatable and never flaky.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
