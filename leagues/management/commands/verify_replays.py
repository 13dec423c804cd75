"""``manage.py verify_replays [--league SLUG]``: replay every meeting and compare with the
cached results.

Every figure of the standings is read from ``HandResult``, which only a replay writes. This
replays each meeting afresh (in playing order, with the special rounds one evening carries
into the next) and reports every meeting whose cached rows differ from that replay, whose
live hands do not carry their numbers 1, 2, ... on the sheet, or that no longer replays.
It writes nothing, unless ``--rebuild``: then every meeting found wrong gets its cached
results (HandResult, MeetingResult, MeetingCarry) rewritten from the fresh replay, and is
still reported. Exit status 1 when it found any it could not mend (with ``--rebuild``, cached
figures that differed are mended), 0 (with a one-line summary) otherwise.

One bad row does not end the run: a meeting that cannot be checked at all (its row does not
read, its rebuild is refused by the database) is listed with its league, its id and the error,
and every other meeting is checked and mended all the same.

After it mended anything, it empties the kept statistics and ratings (``leagues.derived_cache``):
they were worked out from the wrong cached results, and their fingerprints cannot see a
HandResult rewritten with the hands unchanged. A run that mends nothing leaves them, but
``--rebuild`` always forgets the kept what-if outcomes (``leagues.seasons.what_if``): they
replay the engine under rules no stored result checks, which an upgrade may score anew.
"""

from django.core.management.base import BaseCommand, CommandError

from leagues.models import League
from leagues.seasons import what_if
from leagues.stats import derived_cache
from leagues.table.verify import verify_replays


class Command(BaseCommand):
    help = "Replay every meeting and report those whose cached results differ or that no longer replay."

    def add_arguments(self, parser):
        parser.add_argument("--league", metavar="SLUG", help="Only this league.")
        parser.add_argument(
            "--rebuild", action="store_true", help="Rewrite the cached results of every meeting found wrong."
        )

    def handle(self, *args, league=None, rebuild=False, **options):
        if league is not None:
            try:
                league = League.objects.get(slug=league)
            except League.DoesNotExist:
                raise CommandError(f"No league with the short name {league!r}.", returncode=2) from None
        checked, problems = verify_replays(league=league, rebuild=rebuild)
        if rebuild and any(p.kind == "differs" for p in problems):
            # Every league's, not only the one mended: the table is small and worked out again
            # on the next read of each page.
            derived_cache.clear()
        elif rebuild:
            what_if.forget()
        for problem in problems:
            self.stderr.write(str(problem))
        self._report(checked, problems, rebuild=rebuild)

    def _report(self, checked, problems, *, rebuild):
        """The summary line; CommandError while a problem is left unmended."""
        # With --rebuild, cached figures that differed are right now: only what a rebuild
        # cannot mend (a meeting that no longer replays, sheet numbers out of order) fails
        # the command, so that an upgrade can run it as a step (README, production steps).
        unmended = [p for p in problems if not (rebuild and p.kind == "differs")]
        if unmended:
            meetings = len({problem.meeting.pk for problem in unmended})
            raise CommandError(f"{meetings} of {checked} meetings do not match a fresh replay.")
        if problems:
            meetings = len({problem.meeting.pk for problem in problems})
            self.stdout.write(f"{checked} meetings checked: {meetings} rebuilt from a fresh replay.")
            return
        noun = "meeting" if checked == 1 else "meetings"
        self.stdout.write(f"{checked} {noun} checked: every one matches a fresh replay.")
