"""The derived figures that outlive a process: the statistics' season parts, the rating
states and each evening's what-if outcomes (``DerivedFigure``), worked out once for every worker
and machine on the database and still there after a restart.

Each is stored with the fingerprint of what it was worked out from and read only when that
still matches (``leagues.stats.statistics``, ``leagues.stats.ratings``,
``leagues.seasons.what_if``); ``verify_replays --rebuild`` empties the table after it mended a
cached result (which a fingerprint does not see), and forgets the what-if outcomes every time
(an upgraded engine may score other rules differently). A read and a write are one query each,
however many seasons or evenings they hold.
"""

import pickle

from django.db import DatabaseError, transaction

from leagues.models import DerivedFigure


def get_many(league, keys) -> dict:
    """{key: value} of the kept ``keys`` of ``league``. A row that no longer unpickles (a
    part pickled by older code whose class moved or changed, without its key's version
    bumped) is a miss, worked out again: a derived value is never worth a 500."""
    found = {}
    for key, value in DerivedFigure.objects.filter(league=league, key__in=list(keys)).values_list("key", "value"):
        try:
            found[key] = pickle.loads(value)  # noqa: S301 (written by this module alone)
        except (pickle.UnpicklingError, AttributeError, ImportError, EOFError, TypeError, ValueError, IndexError):
            continue
    return found


def get(league, key):
    """The kept value of ``key``, or None."""
    return get_many(league, [key]).get(key)


def set_many(league, data) -> None:
    """Keep every value of ``data`` ({key: value}) for ``league``, over what was kept. Two
    workers writing the same key at once both succeed, the later one's row stays; a write the
    database refuses (a deadlock, the league deleted meanwhile) is dropped: it is worked out
    again on the next read, so a lost write loses nothing."""
    if not data:
        return
    # In the order of the keys, so that two writers lock shared rows in the same order.
    rows = [
        DerivedFigure(league=league, key=key, value=pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
        for key, value in sorted(data.items())
    ]
    try:
        with transaction.atomic():
            DerivedFigure.objects.bulk_create(
                rows, update_conflicts=True, unique_fields=["key"], update_fields=["league", "value"]
            )
    except DatabaseError:
        pass


def clear() -> None:
    """Forget every kept figure of every league."""
    DerivedFigure.objects.all().delete()


def forget(*, prefix: str) -> None:
    """Forget the kept figures of every league whose key starts with ``prefix`` (one kind)."""
    DerivedFigure.objects.filter(key__startswith=prefix).delete()
