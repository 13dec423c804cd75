"""Playwright against Debian's Chromium (never `playwright install`).

Without /usr/bin/chromium the browser tests skip, unless KARTENLIGA_REQUIRE_BROWSER is set
(as CI does), where a missing browser is a failure.
"""

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def pytest_collection_modifyitems(config, items):
    """Every test here is marked ``browser``. With ``KARTENLIGA_BROWSER_SHARE=K/N`` only every
    N-th file of them runs, from the K-th in name order: CI's two databases share the browser
    tests (each file once), which drive the same pages whatever the database below."""
    files = sorted({str(item.fspath) for item in items if "tests/browser/" in str(item.fspath)})
    picked, _slash, every = os.environ.get("KARTENLIGA_BROWSER_SHARE", "1/1").partition("/")
    k, n = int(picked), int(every or 1)
    kept = {name for index, name in enumerate(files) if index % n == k - 1}
    deselected = [item for item in items if str(item.fspath) in files and str(item.fspath) not in kept]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item not in deselected]
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("KARTENLIGA_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium to run browser tests")
    # Playwright's sync API runs its own event loop; Django must allow sync DB use beside it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


def _page(browser, viewport):
    context = browser.new_context(viewport=viewport, locale="en-GB")
    context.set_default_timeout(10_000)
    page = context.new_page()
    return context, page


@pytest.fixture
def phone(browser):
    context, page = _page(browser, PHONE)
    yield page
    context.close()


@pytest.fixture
def desktop(browser):
    context, page = _page(browser, DESKTOP)
    yield page
    context.close()


@pytest.fixture
def shot():
    """shot(page, "name") saves a screenshot under test-artifacts/screenshots/ to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name):
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    return take


@pytest.fixture
def login(live_server):
    """login(page, user) signs ``user`` in through the real login form."""
    from tests.factories import PASSWORD

    def do(page, user):
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", user.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")

    return do
