"""What a new worker process loads once at start-up, before its first request.

Django loads much of what a page needs on first use, once per process: it compiles a template
the first time it is asked for (the cached template loader keeps it then), fills the URL
resolver's reverse tables once per language, reads a language's translation catalogs and
number and date formats the first time the language is active, and the pages import each
game's engine and hand-entry form when a league of that game is first shown. Without this,
the first visitor of every page after a deploy or a worker's restart pays for all of it.

``warm_up`` does it through Django's own caches, nothing kept beside them: `kartenliga/wsgi.py`
calls it in every worker (gunicorn imports the WSGI module in each worker it starts).
"""

import datetime
from importlib import import_module
from pathlib import Path

import django.forms
from django.apps import apps
from django.conf import settings
from django.forms.renderers import get_default_renderer
from django.template import engines
from django.urls import NoReverseMatch, get_resolver, reverse
from django.utils import formats, translation

from leagues.table.hand_entry import FORMS, form_module
from scoring.registry import all_games

FORM_TEMPLATES = Path(django.forms.__file__).parent / "templates"


def _names(folder):
    return sorted(str(p.relative_to(folder)) for p in Path(folder).rglob("*") if p.is_file())


def template_names():
    """The name of every template in the project's template folders (``TEMPLATES``' DIRS)."""
    return [name for backend in settings.TEMPLATES for folder in backend.get("DIRS", ()) for name in _names(folder)]


def load_templates():
    """Every project template compiled into the template loaders' cache, and Django's form
    templates (widgets, errors, labels) into the form renderer's; the project's names.

    A template that does not compile raises here, at start-up, not at its page's first visitor.
    """
    names = template_names()
    for name in names:
        engines["django"].get_template(name)
    renderer = get_default_renderer()
    for name in _names(FORM_TEMPLATES):
        renderer.get_template(name)
    return names


def load_languages():
    """For each of ``LANGUAGES``: its translation catalogs, its date and number formats and
    the URL resolver's reverse tables (Django keeps one per language)."""
    day = datetime.date(2000, 1, 31)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Standings")
            formats.date_format(day, "DATE_FORMAT")
            formats.number_format(1234.5, 2, use_l10n=True)
            reverse_every_name()


def reverse_every_name():
    """Each of the site's URL names reversed once (the first ``reverse`` of a name compiles
    its pattern), with "1" for every argument: whether that fits the pattern does not matter."""
    resolver = get_resolver()
    for name, found in resolver.reverse_dict.lists():
        if not isinstance(name, str):
            continue  # the same patterns, keyed by their view
        for possibility, *_rest in found:
            for _result, params in possibility:
                try:
                    reverse(name, kwargs=dict.fromkeys(params, "1"))
                except NoReverseMatch:
                    pass


def load_models():
    """Each model's fields and relations, which Django gathers at their first query."""
    for model in apps.get_models():
        model._meta.get_fields()


def load_games():
    """Every game's engine and hand-entry form module (imported on a league's first page),
    and the rule book's worked examples (imported on its first page)."""
    all_games()
    for game in FORMS:
        form_module(game)
    import_module("leagues.clubs.rulebook_examples")


def warm_up():
    """Games, models, languages, URLs and templates loaded, as each page would load them on
    first use; returns the names of the project's templates compiled."""
    load_games()
    load_models()
    load_languages()
    return load_templates()
