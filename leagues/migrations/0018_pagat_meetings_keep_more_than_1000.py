"""1000's Pagat rule set wins at exactly 1000 (``target_inclusive`` on, thousand.md). A meeting
copies its rules when it starts, so that later rule changes never rewrite a played evening;
one started before ``target_inclusive`` existed copied no value for it, and a replay fills a
missing option from the preset. Such a Pagat evening was played by "more than 1000": it gets
that value written into its rules. Rules that name the option already, other rule sets and the
leagues' own house rules (which follow the preset for evenings to come) are left alone."""

from django.db import migrations

OPTION = "target_inclusive"


def pin_more_than_1000(apps, schema_editor):
    alias = schema_editor.connection.alias
    Meeting = apps.get_model("leagues", "Meeting")
    pagat = Meeting.objects.using(alias).filter(game="thousand", variant="pagat").only("id", "rules")
    changed = []
    for meeting in pagat.iterator(chunk_size=2000):
        if isinstance(meeting.rules, dict) and OPTION not in meeting.rules:
            meeting.rules = {**meeting.rules, OPTION: False}
            changed.append(meeting)
    Meeting.objects.using(alias).bulk_update(changed, ["rules"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0017_imported_names")]

    # Back: the value stays written; it is what such an evening was played by either way.
    operations = [migrations.RunPython(pin_more_than_1000, migrations.RunPython.noop, elidable=True)]
