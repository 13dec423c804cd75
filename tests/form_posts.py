"""Building form posts in tests, the way a browser sends them."""

import re

from django.http import QueryDict


def post(**fields):
    """A QueryDict of ``fields``; a list value posts the name once per entry (chips)."""
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        if isinstance(value, list):
            data.setlist(key, value)
        else:
            data[key] = value
    return data


def post_from_html(html):
    """What a browser would post for a rendered form: filled values, checked boxes only, no
    disabled input."""
    data = QueryDict(mutable=True)
    for tag in re.findall(r"<input[^>]*>", html, flags=re.S):
        name = re.search(r'name="([^"]*)"', tag)
        if name is None or re.search(r"\sdisabled[\s>/=]", tag):
            continue
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]*)"', tag)
        if kind and kind.group(1) in {"radio", "checkbox"} and " checked" not in tag:
            continue
        data.appendlist(name.group(1), value.group(1) if value else "")
    return data
