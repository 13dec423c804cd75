"""Steps at the Doppelkopf hand form shared by the browser tests."""

from playwright.sync_api import expect


def enter_hand(page, number, re_players, eyes, calls=()):
    """Enter hand ``number``: tap the Re players, type Re's eyes, add ``calls`` as
    (party, call) in the order made, save, and wait for the form of the next hand."""
    form = page.locator("#hand-form")
    expect(form.locator("h2")).to_have_text(f"Enter hand {number}")
    for name in re_players:
        form.locator(".dk-party label.chip", has_text=name).click()
    form.locator("input[name=eyes]").fill(str(eyes))
    for party, call in calls:
        form.locator(f".ann-{party} button[data-ann='{party}:{call}']").click()
    form.locator("button[type=submit]").click()
    expect(page.locator("#hand-form h2")).to_have_text(f"Enter hand {number + 1}")
