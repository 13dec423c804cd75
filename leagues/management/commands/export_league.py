"""``manage.py export_league SLUG [--output FILE]``: the league's JSON export (as the league
page downloads it), for backups and for imports larger than a request may carry."""

import sys

from django.core.management.base import BaseCommand, CommandError

from leagues.exchange import league_file as exchange
from leagues.models import League


class Command(BaseCommand):
    help = "Write a league's data as entered (JSON) to a file or standard output."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", help="The file to write (default: standard output).")

    def handle(self, *args, slug, output=None, **options):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"No league {slug!r}.")
        pieces = exchange.export_json(league=league)
        if output:
            with open(output, "w", encoding="utf-8") as f:
                f.writelines(pieces)
        else:
            sys.stdout.writelines(pieces)
            sys.stdout.write("\n")
