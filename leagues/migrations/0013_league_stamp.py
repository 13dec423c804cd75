"""LeagueStamp and the triggers that keep it (issue 12: whole pages kept under it).

Every table that holds something of a league gets triggers that give the league's stamp a new
random value when one of its rows is inserted, changed or deleted. The database keeps it, so
no writer (the app, the admin, a management command, a bulk write, plain SQL) can forget.

- SQLite: one AFTER trigger per table and operation. SQLite lets one writer in at a time, so
  the stamp's row cannot deadlock anyone.
- PostgreSQL: CONSTRAINT triggers, DEFERRABLE INITIALLY DEFERRED, so that they run at COMMIT,
  after every other lock the transaction takes. Run at once, a carried correction that holds
  the stamp's row (its first hand) and then locks a later meeting would deadlock with a
  scorekeeper who holds that meeting and writes a hand. At COMMIT the stamp is changed once per
  league and statement (the guard, keyed by ``statement_timestamp()``), not once per row.
  ``SET CONSTRAINTS kartenliga_stamp IMMEDIATE`` runs them at each statement instead (the test
  suite does, since its transactions never commit).
"""

from django.conf import settings
from django.db import migrations, models

# table (model name) -> how its rows name their league
BY_LEAGUE = ["membership", "player", "invite", "season", "meeting", "handresult", "meetingresult"]
BY_MEETING = ["seat", "hand", "meetingcarry", "meetingreopening"]
BY_SEASON = ["seasonbill", "seasonreopening"]


def _tables(apps):
    table = lambda name: apps.get_model("leagues", name)._meta.db_table  # noqa: E731
    user = apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table
    return table, user


def _sqlite_statements(apps):
    table, user = _tables(apps)
    stamp, meeting, season, membership = table("leaguestamp"), table("meeting"), table("season"), table("membership")
    bump = f"UPDATE {stamp} SET value = random() WHERE league_id"
    lookups = {}
    for name in BY_LEAGUE:
        lookups[name] = "{row}.league_id"
    for name in BY_MEETING:
        lookups[name] = f"(SELECT league_id FROM {meeting} WHERE id = {{row}}.meeting_id)"
    for name in BY_SEASON:
        lookups[name] = f"(SELECT league_id FROM {season} WHERE id = {{row}}.season_id)"
    statements = []
    for name, lookup in lookups.items():
        for operation, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
            statements.append(
                f"CREATE TRIGGER kartenliga_stamp_{name}_{operation.lower()} AFTER {operation} ON {table(name)}"
                f" BEGIN {bump} = {lookup.format(row=row)}; END"
            )
    league = table("league")
    statements += [
        f"CREATE TRIGGER kartenliga_stamp_league_insert AFTER INSERT ON {league}"
        f" BEGIN INSERT INTO {stamp} (league_id, value) VALUES (NEW.id, random()); END",
        f"CREATE TRIGGER kartenliga_stamp_league_update AFTER UPDATE ON {league}"
        f" BEGIN {bump} = NEW.id; END",
        # A member's name is shown on his league's page.
        f"CREATE TRIGGER kartenliga_stamp_user_update AFTER UPDATE OF username ON {user}"
        f" BEGIN {bump} IN (SELECT league_id FROM {membership} WHERE user_id = NEW.id); END",
    ]
    return statements


def _sqlite_drops(apps):
    names = [f"{name}_{op}" for name in BY_LEAGUE + BY_MEETING + BY_SEASON for op in ("insert", "update", "delete")]
    names += ["league_insert", "league_update", "user_update"]
    return [f"DROP TRIGGER IF EXISTS kartenliga_stamp_{name}" for name in names]


def _through(parent, table):
    """The trigger function of the rows that name their league through their ``parent``
    (``<parent>_id``, a row of ``table``)."""
    return f"""CREATE FUNCTION kartenliga_stamp_by_{parent}() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          parent_key bigint;
        BEGIN
          IF TG_OP = 'DELETE' THEN parent_key := OLD.{parent}_id; ELSE parent_key := NEW.{parent}_id; END IF;
          PERFORM kartenliga_bump((SELECT p.league_id FROM {table} p WHERE p.id = parent_key));
          RETURN NULL;
        END $$"""


def _postgresql_statements(apps):
    table, user = _tables(apps)
    stamp, meeting, season, membership = table("leaguestamp"), table("meeting"), table("season"), table("membership")
    statements = [
        # Once per league and statement: deferred, every row's trigger runs at COMMIT, which is
        # one statement, so one UPDATE; run at once (SET CONSTRAINTS ... IMMEDIATE), every
        # statement changes the stamp again.
        f"""CREATE FUNCTION kartenliga_bump(lid bigint) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
          guard text := 'kartenliga.stamped_' || lid;
        BEGIN
          IF lid IS NULL OR current_setting(guard, true) = statement_timestamp()::text THEN
            RETURN;
          END IF;
          PERFORM set_config(guard, statement_timestamp()::text, true);
          UPDATE {stamp} SET value = floor(random() * 9007199254740991)::bigint WHERE league_id = lid;
        END $$""",
        """CREATE FUNCTION kartenliga_stamp_by_league() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN PERFORM kartenliga_bump(OLD.league_id);
          ELSE PERFORM kartenliga_bump(NEW.league_id); END IF;
          RETURN NULL;
        END $$""",
        _through("meeting", meeting),
        _through("season", season),
        """CREATE FUNCTION kartenliga_stamp_league() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM kartenliga_bump(NEW.id);
          RETURN NULL;
        END $$""",
        f"""CREATE FUNCTION kartenliga_stamp_new_league() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO {stamp} (league_id, value) VALUES (NEW.id, floor(random() * 9007199254740991)::bigint);
          RETURN NULL;
        END $$""",
        f"""CREATE FUNCTION kartenliga_stamp_user() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM kartenliga_bump(m.league_id) FROM {membership} m WHERE m.user_id = NEW.id;
          RETURN NULL;
        END $$""",
    ]
    deferred = "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION"
    for names, function in (
        (BY_LEAGUE, "kartenliga_stamp_by_league"),
        (BY_MEETING, "kartenliga_stamp_by_meeting"),
        (BY_SEASON, "kartenliga_stamp_by_season"),
    ):
        for name in names:
            statements.append(
                f"CREATE CONSTRAINT TRIGGER kartenliga_stamp AFTER INSERT OR UPDATE OR DELETE ON {table(name)}"
                f" {deferred} {function}()"
            )
    league = table("league")
    statements += [
        f"CREATE TRIGGER kartenliga_stamp_new AFTER INSERT ON {league} FOR EACH ROW"
        " EXECUTE FUNCTION kartenliga_stamp_new_league()",
        f"CREATE CONSTRAINT TRIGGER kartenliga_stamp AFTER UPDATE ON {league} {deferred} kartenliga_stamp_league()",
        # A member's name is shown on his league's page (not every login's last_login).
        f"CREATE CONSTRAINT TRIGGER kartenliga_stamp AFTER UPDATE ON {user}"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username)"
        " EXECUTE FUNCTION kartenliga_stamp_user()",
    ]
    return statements


def _postgresql_drops(apps):
    table, user = _tables(apps)
    drops = [
        f"DROP TRIGGER IF EXISTS kartenliga_stamp ON {table(name)}" for name in BY_LEAGUE + BY_MEETING + BY_SEASON
    ]
    drops += [
        f"DROP TRIGGER IF EXISTS kartenliga_stamp_new ON {table('league')}",
        f"DROP TRIGGER IF EXISTS kartenliga_stamp ON {table('league')}",
        f"DROP TRIGGER IF EXISTS kartenliga_stamp ON {user}",
    ]
    drops += [
        f"DROP FUNCTION IF EXISTS {name}"
        for name in (
            "kartenliga_stamp_by_league()",
            "kartenliga_stamp_by_meeting()",
            "kartenliga_stamp_by_season()",
            "kartenliga_stamp_league()",
            "kartenliga_stamp_new_league()",
            "kartenliga_stamp_user()",
            "kartenliga_bump(bigint)",
        )
    ]
    return drops


def create_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    table, _user = _tables(apps)
    stamp, league = table("leaguestamp"), table("league")
    if vendor == "sqlite":
        statements = _sqlite_statements(apps)
        fill = f"INSERT INTO {stamp} (league_id, value) SELECT id, random() FROM {league}"
    elif vendor == "postgresql":
        statements = _postgresql_statements(apps)
        fill = (
            f"INSERT INTO {stamp} (league_id, value)"
            f" SELECT id, floor(random() * 9007199254740991)::bigint FROM {league}"
        )
    else:
        # Another database has no triggers here: no stamp, so no page is ever kept
        # (leagues/pages.py renders every page afresh when a league has none).
        return
    schema_editor.execute(fill)
    for statement in statements:
        schema_editor.execute(statement)


def drop_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        drops = _sqlite_drops(apps)
    elif vendor == "postgresql":
        drops = _postgresql_drops(apps)
    else:
        return
    for statement in drops:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0012_meeting_league_order"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LeagueStamp",
            fields=[
                (
                    "league",
                    models.OneToOneField(
                        on_delete=models.deletion.CASCADE,
                        primary_key=True,
                        related_name="stamp",
                        serialize=False,
                        to="leagues.league",
                    ),
                ),
                ("value", models.BigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
