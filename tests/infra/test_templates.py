"""What every template must keep true, whatever page it belongs to."""

import re
from pathlib import Path

import pytest

TEMPLATES = sorted((Path(__file__).resolve().parents[2] / "templates").rglob("*.html"))
# Django's {# ... #} comments end at the line's end: a comment over two lines is printed
# on the page, word for word, for every visitor (it once stood above every page's header).
UNCLOSED_COMMENT = re.compile(r"\{#(?:(?!#\}).)*$", re.M)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_no_template_has_a_comment_over_several_lines(path):
    assert not UNCLOSED_COMMENT.search(path.read_text()), "use {% comment %} for comments over several lines"


def test_the_check_finds_a_comment_over_two_lines():
    assert UNCLOSED_COMMENT.search("<head>\n  {# first line\n  second line #}\n</head>")
    assert not UNCLOSED_COMMENT.search("<head>\n  {# one line #}\n</head>")


def test_the_start_page_shows_no_template_syntax(client, db):
    html = client.get("/").content.decode()
    assert "{#" not in html and "#}" not in html


def test_every_page_names_an_icon_so_browsers_do_not_ask_for_a_missing_favicon(client, db):
    # Without one, every first visit logs a 404 for /favicon.ico in the browser's console.
    html = client.get("/").content.decode()
    assert 'rel="icon"' in html and "img/favicon.svg" in html
