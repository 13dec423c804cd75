"""The German catalogue: every message translated, none left fuzzy, the compiled file current.

makemessages marks a changed message fuzzy (a guess from a similar one) and leaves a new one
empty; either way German users would read English, or worse a wrong guess ("Revoke" once read
"Falsch bedient" on the invite buttons).
"""

import re
from pathlib import Path

import polib
import pytest

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES"


@pytest.fixture(scope="module")
def po():
    return polib.pofile(str(CATALOGUE / "django.po"))


def _name(entry):
    return f"{entry.msgctxt}|{entry.msgid}" if entry.msgctxt else entry.msgid


def test_no_german_message_is_fuzzy(po):
    assert [_name(e) for e in po.fuzzy_entries()] == []


def test_every_german_message_is_translated(po):
    assert [_name(e) for e in po.untranslated_entries()] == []


def test_the_compiled_catalogue_matches_the_source(po):
    mo = polib.mofile(str(CATALOGUE / "django.mo"))
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items()))) for e in mo}
    source = {(e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items()))) for e in po.translated_entries()}
    stale = sorted(_name(polib.POEntry(msgctxt=k[0], msgid=k[1])) for k in source if compiled.get(k) != source[k])
    assert stale == [], "run `make messages` (compilemessages) after editing django.po"


def test_german_says_trumpf(po):
    # "Trump" stayed English in the 45 and 110 forms ("Kein Trump gespielt").
    english = [e.msgid for e in po.translated_entries() if re.search(r"\b[Tt]rump\b", e.msgstr)]
    assert english == []
