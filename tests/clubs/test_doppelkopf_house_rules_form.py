"""The league's house-rules form (generated from the options in scoring/doppelkopf_rules.py)
offers the Doppelkopf house-rule options, starts at the preset's values (today's figures) and
checks what is posted."""

from leagues.clubs.forms import RulesForm
from scoring.doppelkopf import GAME


def _posted(form, **changes):
    """What the browser posts for an untouched form, with ``changes`` (by option name)."""
    data = {}
    for name, field in form.fields.items():
        value = changes.get(name, form.initial.get(name, field.initial))
        if isinstance(value, bool):
            if value:
                data[f"rule-{name}"] = "on"
        elif value is not None:
            data[f"rule-{name}"] = value
    return data


def test_the_form_offers_the_new_options_at_the_presets_values():
    for preset in ("club", "ddv"):
        form = RulesForm(spec=GAME, preset=preset)
        assert form.fields["announcement_points"].initial == 2
        assert form.fields["karlchen_gefangen"].initial is False
        assert form.fields["bock_stacking"].initial == "queue"
        html = str(form)
        for name in ("announcement_points", "karlchen_gefangen", "bock_stacking"):
            assert f'name="rule-{name}"' in html
        assert "Karlchen gefangen" in html and "Several Bock rounds at once" in html
    labels = {section["label"]: section for section in RulesForm(spec=GAME, preset="club").sections()}
    assert {"Points", "Sonderpunkte", "Special rounds"} <= set(labels)


def test_the_form_takes_the_new_options_and_checks_them():
    form = RulesForm(spec=GAME, preset="club")
    data = _posted(form, bock_stacking="stack", announcement_points=1, karlchen_gefangen=True)
    filled = RulesForm(data, spec=GAME, preset="club")
    assert filled.is_valid(), filled.errors
    assert filled.rules["bock_stacking"] == "stack"
    assert filled.rules["announcement_points"] == 1 and filled.rules["karlchen_gefangen"] is True
    bad = RulesForm(_posted(form, announcement_points=5, bock_stacking="pile"), spec=GAME, preset="club")
    assert not bad.is_valid()
    assert set(bad.errors) == {"announcement_points", "bock_stacking"}
