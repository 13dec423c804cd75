"""The rule book: the project's rules documentation (``docs/rules/``) read, and shown for a
league with the value of every option in force and worked examples from the engine.

The texts are plain Markdown files, one per game (or family) and language
(``doppelkopf.de.md``, ``maw.en.md`` …), so that they read well on their own; a few HTML
comments, invisible there, tell this module what each part is about:

- ``<!-- game: KEY -->`` on a heading (or on the line under it): the part under it is about that game only (the Maw file
  holds five games); ``<!-- game: * -->``: about every game of the file that has the options.
  Before the first such heading the text is about every game of the file.
- ``<!-- option: NAME -->`` on a heading (or on the line under it): the section explains the rule option ``NAME``
  (declared by ``Option(...)`` in scoring/). A game-specific section wins over a ``*`` one.
- ``<!-- example: NAME -->`` on a line of its own: the next paragraph describes a worked
  example, whose hands are data in :mod:`leagues.rulebook_examples` and whose figures the page
  asks the engine for, under the rules in force.

Only a small Markdown subset is understood, and everything is escaped before the little
markup is applied: headings (``#`` to ``###``), paragraphs, ``-`` lists, ``**bold**``,
``*emphasis*``. No raw HTML passes through (the site's CSP forbids inline script and style
anyway).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import options as kinds
from scoring.options import Option

DOCS = Path(settings.BASE_DIR) / "docs" / "rules"
LANGUAGES = ("de", "en")
# The file that documents each game (the Maw family shares one).
FILES = {
    "doppelkopf": "doppelkopf",
    "thousand": "thousand",
    "fifty_six": "fifty-six",
    "twenty_five": "maw",
    "forty_five": "maw",
    "one_ten": "maw",
    "auction_45": "maw",
    "spoil_five": "maw",
}
ANY_GAME = "*"

_HEADING = re.compile(r"^(#{1,3})\s+(.*?)\s*(?:<!--\s*(game|option)\s*:\s*([\w*-]+)\s*-->)?\s*$")
_EXAMPLE = re.compile(r"^<!--\s*example\s*:\s*([\w-]+)\s*-->\s*$")
_MARKER = re.compile(r"^<!--\s*(game|option)\s*:\s*([\w*-]+)\s*-->\s*$")
_COMMENT = re.compile(r"^<!--.*-->\s*$")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


@dataclass
class Block:
    """A paragraph (``p``), a list (``ul``, ``items``) or an example's description (``example``)."""

    kind: str
    text: str = ""
    items: list[str] = field(default_factory=list)
    name: str = ""  # an example's name

    @property
    def html(self) -> SafeString:
        if self.kind == "ul":
            return mark_safe("<ul>" + "".join(f"<li>{inline(item)}</li>" for item in self.items) + "</ul>")
        return mark_safe(f"<p>{inline(self.text)}</p>")


@dataclass
class Section:
    level: int
    heading: str
    game: str | None  # None: the whole file; ANY_GAME: every game of the file with the option
    option: str | None = None
    blocks: list[Block] = field(default_factory=list)

    @property
    def heading_html(self) -> SafeString:
        return inline(self.heading)

    def examples(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == "example"]

    @property
    def body_html(self) -> SafeString:
        """The section's text, without its examples (the page shows those worked out)."""
        return mark_safe("".join(block.html for block in self.blocks if block.kind != "example"))


@dataclass
class Document:
    title: str
    sections: list[Section]

    def option_section(self, game: str, option: str) -> Section | None:
        """The text of ``option`` for ``game``: the game's own section, else the common one."""
        common = None
        for section in self.sections:
            if section.option != option:
                continue
            if section.game == game:
                return section
            if section.game in (None, ANY_GAME) and common is None:
                common = section
        return common

    def general_sections(self, game: str) -> list[Section]:
        """The sections that explain the game itself (no option), in the file's order."""
        return [s for s in self.sections if s.option is None and s.game in (None, game) and (s.blocks or s.level > 1)]


def inline(text: str) -> SafeString:
    """Escape ``text``, then apply **bold** and *emphasis*."""
    html = escape(text)
    html = _BOLD.sub(r"<strong>\1</strong>", html)
    html = _EM.sub(r"<em>\1</em>", html)
    return mark_safe(html)


class _Reader:
    """What :func:`parse` holds while it reads a rules file line by line."""

    def __init__(self) -> None:
        self.title = ""
        self.sections: list[Section] = []
        self.game: str | None = None
        self.game_level = 0
        self.current: Section | None = None
        self.paragraph: list[str] = []
        self.items: list[str] = []
        self.example: str | None = None

    def read(self, line: str) -> None:
        heading = _HEADING.match(line)
        if heading:
            self.heading(heading)
        elif self.marker(_MARKER.match(line)):
            pass
        elif named := _EXAMPLE.match(line):
            self.flush()
            self.example = named[1]
        elif _COMMENT.match(line):
            pass
        elif not line.strip():
            self.flush()
        else:
            self.text(line)

    def heading(self, heading: re.Match) -> None:
        self.flush()
        level, words, marker, value = len(heading[1]), heading[2], heading[3], heading[4]
        if level == 1:
            self.title = words
            self.game, self.game_level = None, 0
            self.open(Section(1, words, None))
            return
        if marker == "game":
            self.game, self.game_level = value, level
        elif self.game is not None and level <= self.game_level:
            self.game, self.game_level = None, 0  # a heading at the game's level ends its part
        self.open(Section(level, words, self.game, option=value if marker == "option" else None))

    def open(self, section: Section) -> None:
        self.current = section
        self.sections.append(section)

    def marker(self, marker: re.Match | None) -> bool:
        """A marker on the line under the heading says what the section is about; False when
        the line is not such a marker."""
        current = self.current
        if not marker or current is None or current.blocks or self.paragraph or self.items:
            return False
        if marker[1] == "game":
            self.game, self.game_level = marker[2], current.level
            current.game = self.game
        else:
            current.option = marker[2]
        return True

    def text(self, line: str) -> None:
        if line.startswith("- "):
            if self.paragraph:
                self.flush()
            self.items.append(line[2:].strip())
        elif self.items and line.startswith("  "):
            self.items[-1] += " " + line.strip()  # a list item's continuation
        else:
            if self.items:
                self.flush()
            self.paragraph.append(line)

    def flush(self) -> None:
        """End the paragraph or list being read: it joins the current section."""
        if self.current is None:
            self.paragraph.clear()
            self.items.clear()
            return
        if self.paragraph:
            joined = " ".join(line.strip() for line in self.paragraph)
            if self.example is not None:
                self.current.blocks.append(Block("example", joined, name=self.example))
                self.example = None
            else:
                self.current.blocks.append(Block("p", joined))
            self.paragraph.clear()
        if self.items:
            self.current.blocks.append(Block("ul", items=list(self.items)))
            self.items.clear()


def parse(text: str) -> Document:
    """Read one rules file (the subset described in the module docstring)."""
    reader = _Reader()
    for raw in text.splitlines():
        reader.read(raw.rstrip())
    reader.flush()
    return Document(reader.title, reader.sections)


@cache
def load(stem: str, language: str) -> Document:
    return parse((DOCS / f"{stem}.{language}.md").read_text(encoding="utf-8"))


def page_language() -> str:
    """The rules file's language for the page: German for German, English otherwise."""
    return "de" if (get_language() or "").startswith("de") else "en"


def document_for(game: str, language: str | None = None) -> Document:
    return load(FILES[game], language or page_language())


# --- values of options, as players say them ----------------------------------------------------


def signed(number: int) -> str:
    """+4, −4 (a real minus sign), 0."""
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"−{-number}"
    return "0"


def plain_number(number: Any) -> str:
    return f"−{-number}" if isinstance(number, int) and not isinstance(number, bool) and number < 0 else str(number)


def _choice(option: Option, value: Any) -> str:
    label = option.choice_labels.get(value)
    if label is not None:
        return _(label)
    return _("none") if value is None else str(value)


def format_value(option: Option, value: Any) -> str:
    """An option's value as the page states it ("on", "120", "only the winners' own absagen")."""
    if value is None:
        return _choice(option, None) if None in option.choice_labels else _("none")
    stated = _FORMATS.get(option.kind)
    if stated is None:
        return _loose(value)  # a kind this page does not know yet: still readable
    return stated(option, value)


def _on_off(option: Option, value: Any) -> str:
    return _("on") if value else _("off")


def _choices(option: Option, values: list) -> str:
    return ", ".join(_choice(option, v) for v in values) if values else _("none")


def _pair(option: Option, values: list) -> str:
    return " / ".join(plain_number(v) for v in values)


def _mapping(option: Option, values: dict) -> str:
    return ", ".join(f"{_choice(option, k)} {plain_number(v)}" for k, v in values.items())


def _tiers(option: Option, rows: list) -> str:
    last = option.choices[-1] if option.choices else None
    parts = []
    for i, (start, made, failed) in enumerate(rows):
        end = rows[i + 1][0] - 1 if i + 1 < len(rows) else last
        span = str(start) if end in (None, start) else f"{start}–{end}"
        parts.append(f"{span}: {plain_number(made)} / {plain_number(failed)}")
    return ", ".join(parts)


def _loose(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_loose(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_loose(v) for v in value) if value else _("none")
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return plain_number(value)


_FORMATS = {
    kinds.BOOL: _on_off,
    kinds.INT: lambda option, value: plain_number(value),
    kinds.CHOICE: _choice,
    kinds.MULTI: _choices,
    kinds.INT_PAIR: _pair,
    kinds.MAPPING: _mapping,
    "tiers": _tiers,  # rows [from, made, failed], each up to the next row's start
}


def same_value(a: Any, b: Any) -> bool:
    """Equal rules: a list of choices is the same in any order."""
    if isinstance(a, list) and isinstance(b, list) and all(isinstance(v, str) for v in a + b):
        return sorted(a) == sorted(b)
    return a == b


# --- the page: a game's rules, the values in force, the examples worked out ---------------------


@dataclass
class Worked:
    """An example: its description from the rules file and what the engine made of it."""

    text: SafeString
    outcome: Any  # rulebook_examples.Outcome


@dataclass
class Part:
    """One section of the page: the text, and for a rule option its value in force."""

    section: Section
    examples: list[Worked]
    option: Option | None = None
    value: str = ""
    preset_value: str = ""
    changed: bool = False

    @property
    def anchor(self) -> str:
        return f"rule-{self.option.name}" if self.option else ""


@dataclass
class RuleBook:
    title: str
    general: list[Part]
    rules: list[Part]
    missing: list[str]  # options without a text (none, once the docs are complete)

    @property
    def changed(self) -> list[Part]:
        return [part for part in self.rules if part.changed]


def _worked(game: str, section: Section, rules: dict[str, Any]) -> list[Worked]:
    from leagues.clubs.rulebook_examples import run

    worked = []
    for block in section.examples():
        outcome = run(game, block.name, rules)
        if outcome is not None:  # a shared section may name an example only some games have
            worked.append(Worked(inline(block.text), outcome))
    return worked


def rule_book(*, game: str, spec, variant: str, rules: dict[str, Any], language: str | None = None) -> RuleBook:
    """The page for ``game`` under ``rules`` (a preset's values with the overrides applied):
    the general sections, then one part per option the game declares, in the league form's
    order, each with its value and whether it differs from the preset ``variant``."""
    document = document_for(game, language)
    preset = spec.presets.get(variant, {})
    general = [Part(s, _worked(game, s, rules)) for s in document.general_sections(game)]
    parts, missing = [], []
    for option in spec.options:
        section = document.option_section(game, option.name)
        if section is None:
            missing.append(option.name)
            continue
        value = rules.get(option.name, preset.get(option.name))
        in_preset = preset.get(option.name)
        parts.append(
            Part(
                section,
                _worked(game, section, rules),
                option=option,
                value=format_value(option, value),
                preset_value=format_value(option, in_preset),
                changed=option.name in preset and not same_value(value, in_preset),
            )
        )
    return RuleBook(document.title, general, parts, missing)
