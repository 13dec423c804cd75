"""Path converters for the tokens in invite and public links.

A token is ``secrets.token_urlsafe`` output (leagues/models/ ``new_token``): letters, digits,
``-`` and ``_``. Matching only those keeps anything else out of the database lookup: a NUL in
``/invite/%00/`` or ``/p/%00/`` used to reach PostgreSQL, which refuses it with an error (a
500); now such a path matches no URL at all (a 404). Registered as ``<token:…>`` when the
app is ready (leagues/apps.py), before any URLconf is read.
"""


class TokenConverter:
    # token_urlsafe(24) gives 32 characters; the column holds 64.
    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value
