"""The special rounds waiting after the current one are shown as runs (the ``next`` partial of
templates/hands/doppelkopf.html, ``queue_runs``): a league that carries its rounds from evening
to evening can queue hundreds, which were one badge each."""

from django.template.loader import render_to_string

from leagues.table.hand_entry.doppelkopf import next_words
from leagues.templatetags.sheet import QUEUE_RUNS_SHOWN, queue_runs


def NEXT(context):  # noqa: N802 (the panel as the meeting page renders it)
    return render_to_string("hands/doppelkopf.html#next", {**context, "dk": next_words(context["next"])})


def test_it_groups_rounds_of_the_same_kind_in_their_order():
    queue = ["bock", "bock", "ramsch", "bock", "pflichtsolo", "pflichtsolo", "pflichtsolo"]
    assert queue_runs(queue) == {
        "shown": [("bock", 2), ("ramsch", 1), ("bock", 1), ("pflichtsolo", 3)],
        "more": 0,
    }


def test_it_counts_the_rounds_after_the_runs_it_shows():
    queue = ["bock", "ramsch"] * 10  # 20 runs of one round each
    runs = queue_runs(queue)
    assert len(runs["shown"]) == QUEUE_RUNS_SHOWN
    assert runs["more"] == 20 - QUEUE_RUNS_SHOWN


def test_an_empty_queue_has_no_runs():
    assert queue_runs([]) == {"shown": [], "more": 0}
    assert queue_runs(None) == {"shown": [], "more": 0}


def test_the_panel_names_each_run_and_what_comes_after(settings):
    settings.LANGUAGE_CODE = "en"
    queue = ["bock"] * 98 + ["ramsch"] * 3 + ["pflichtsolo", "bock", "ramsch", "bock"]
    html = NEXT({"next": {"dealer": "Anna", "active": ["Anna"], "queue": queue}, "result": {}})
    assert '<span class="badge bock">Bock ×98</span>' in html
    assert '<span class="badge ramsch">Ramsch ×3</span>' in html
    assert '<span class="badge pflichtsolo">Pflichtsolo</span>' in html
    assert "then 2 more rounds" in html  # ramsch, bock after the four runs shown
    assert html.count('class="badge') == 4


def test_the_panels_badges_read_as_written_out_by_hand_in_english_and_german():
    from django.utils import translation

    queue = ["bock"] * 98 + ["ramsch"] * 3 + ["pflichtsolo", "penalty", "ramsch", "bock"]
    context = {"next": {"dealer": "Anna", "active": ["Anna"], "queue": queue}, "result": {}}
    with translation.override("en"):
        html = NEXT(context)
    assert (
        '<b><span class="badge bock">Bock ×98</span> <span class="badge ramsch">Ramsch ×3</span> '
        '<span class="badge pflichtsolo">Pflichtsolo</span> <span class="badge penalty">Penalty solo</span> '
        '<span class="queue-more">then 2 more rounds</span></b>'
    ) in html
    with translation.override("de"):
        html = NEXT({**context, "next": {**context["next"], "queue": queue[:-1]}})
    assert '<span class="badge ramsch">Ramsch ×3</span>' in html
    assert '<span class="queue-more">dann noch 1 Runde</span></b>' in html
