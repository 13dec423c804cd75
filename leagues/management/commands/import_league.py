"""``manage.py import_league FILE --name NAME --slug SLUG --admin USERNAME``: a JSON export as a
new league (the page does the same for files up to the request size limit), read and checked
as the page reads it (leagues/exchange/import_checks.py), up to ``import_checks.MAX_FILE_BYTES``. It
says how far it got every ``exchange.PROGRESS_EVERY`` evenings (``-v 0``: nothing)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from leagues.clubs.forms import NewLeagueForm
from leagues.exchange import import_checks
from leagues.exchange import league_file as exchange

STEPS = {"stored": "Stored", "replayed": "Replayed"}


class Command(BaseCommand):
    help = "Import a league export (JSON) as a new league with USERNAME as its admin."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--name", required=True)
        parser.add_argument("--slug", required=True)
        parser.add_argument("--admin", required=True, help="The username of the new league's admin.")

    def handle(self, *args, file, name, slug, admin, verbosity=1, **options):
        user = get_user_model().objects.filter(username=admin).first()
        if user is None:
            raise CommandError(f"No user {admin!r}.")
        # The name and the short name as the import page takes them (a short name taken, too long...).
        form = NewLeagueForm({"name": name, "slug": slug})
        if not form.is_valid():
            raise CommandError("; ".join(f"{field}: {' '.join(errors)}" for field, errors in form.errors.items()))
        name, slug = form.cleaned_data["name"], form.cleaned_data["slug"]
        progress = self.progress if verbosity >= 1 else None
        try:
            league = exchange.import_league(data=_read(file), user=user, name=name, slug=slug, progress=progress)
        except exchange.ImportProblem as error:
            raise CommandError("; ".join(e["message"] for e in error.errors)) from error
        if verbosity >= 1:
            self.stdout.write(f"Imported {league.name} ({league.slug}): {league.meetings.count()} meetings.")

    def progress(self, step, done, total):
        self.stdout.write(f"{STEPS[step]} {done} of {total} evenings.")


def _read(file: str) -> import_checks.LeagueFile:
    try:
        with open(file, "rb") as f:
            return import_checks.read_json(f)
    except OSError as error:
        raise CommandError(f"Cannot read {file}: {error}") from error
