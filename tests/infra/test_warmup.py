"""What a worker loads at start-up (kartenliga/warmup.py): every template compiles, and a page
then finds each template it renders in the cached loader, compiled."""

from pathlib import Path

from django.conf import settings
from django.template import engines
from django.template.loaders import cached
from django.template.loaders.base import Loader
from django.urls import get_resolver
from django.utils import translation

from kartenliga import warmup

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_every_template_compiles():
    names = warmup.warm_up()
    on_disk = sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*") if p.is_file())
    assert sorted(names) == on_disk
    assert {"base.html", "meetings/meeting.html", "pwa/sw.js", "registration/password_reset_email.txt"} <= set(names)


def test_a_page_after_the_warm_up_compiles_no_template(client, db, monkeypatch):
    """With debug off the engine caches what it compiled: the start page, its form and the
    login page's widgets come from that cache."""
    warmup.warm_up()
    compiled = []
    real = Loader.get_template

    def counting(self, name, skip=None):
        compiled.append(name)
        return real(self, name, skip)

    monkeypatch.setattr(Loader, "get_template", counting)
    assert client.get("/").status_code == 200
    assert client.get("/accounts/login/").status_code == 200
    assert compiled == []


def test_both_languages_are_loaded():
    warmup.warm_up()
    resolver = get_resolver()
    for code, _name in settings.LANGUAGES:
        assert code in resolver._reverse_dict  # Django's reverse table for that language
    with translation.override("de"):
        assert translation.gettext("Standings") == "Tabelle"


def test_the_cached_loader_serves_the_project_templates():
    # The warm-up is worth its time only with the cached loader (Django's default): no
    # setting of ours may replace it. django-template-partials wraps it.
    (partials,) = engines["django"].engine.template_loaders
    assert [type(loader) for loader in partials.loaders] == [cached.Loader]
