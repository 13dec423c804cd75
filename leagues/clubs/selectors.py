"""Reads of leagues and their members."""

from django.contrib.auth import get_user_model

from leagues.models import (
    Invite,
    Meeting,
    Membership,
    Player,
    Role,
    Season,
)


def memberships_of(*, user):
    """``user``'s memberships with their leagues, for the "my leagues" list (one query)."""
    return Membership.objects.filter(user=user).select_related("league").order_by("league__name")


def league_overview(*, league, admin=False, meetings=10):
    """What the league page shows: seasons, members, players, recent meetings and, for
    admins, the open invites. A fixed number of queries whatever the size of the league, each
    reading only the columns the page shows, as plain values: seasons (number, started_on,
    closed_on, locked), memberships (pk, role, role_display, display_name), players (id, name,
    user_id, active) and meetings (id, date, imported_totals, host, season, and a club night's
    tables: [(number, meeting id)]) are dicts, a club night's tables one evening."""
    roles = dict(Role.choices)
    seasons = Season.objects.filter(league=league).order_by("-number")
    recent = Meeting.objects.filter(league=league).order_by("-date", "-id")[:meetings]
    data = {
        "seasons": [
            {"number": number, "started_on": started, "closed_on": closed, "locked": locked is not None}
            for number, started, closed, locked in seasons.values_list("number", "started_on", "closed_on", "locked_at")
        ],
        "players": list(
            Player.objects.filter(league=league).order_by("name").values("id", "name", "user_id", "active")
        ),
        "meetings": _evenings(
            recent.values_list(
                "id", "date", "imported_totals", "host__name", "season__number", "club_night_id", "table_number"
            )
        ),
        "invites": [],
    }
    names = {p["user_id"]: p["name"] for p in data["players"] if p["user_id"]}
    # The members' accounts: their names alone, not their password hashes.
    username = f"user__{get_user_model().USERNAME_FIELD}"
    members = Membership.objects.filter(league=league).order_by(username)
    data["memberships"] = [
        {"pk": pk, "role": role, "role_display": roles.get(role, role), "display_name": names.get(user_id) or name}
        for pk, role, user_id, name in members.values_list("id", "role", "user_id", username)
    ]
    if admin:
        data["invites"] = list(
            Invite.objects.filter(league=league).open().select_related("player").order_by("-created_at")
        )
    return data


def _evenings(rows) -> list[dict]:
    """The evenings of meeting ``rows`` (newest first), a club night's tables in one."""
    evenings, nights = [], {}
    for pk, date, imported, host, number, night_id, table in rows:
        if night_id in nights:
            nights[night_id]["tables"].insert(0, (table, pk))
            nights[night_id]["id"] = pk
            continue
        evening = {"id": pk, "date": date, "imported_totals": imported, "host": host, "season": number, "tables": []}
        if night_id is not None:
            evening["tables"].append((table, pk))
            nights[night_id] = evening
        evenings.append(evening)
    return evenings


def league_meetings():
    """Meetings with their season and host (shown with every meeting), and ``opens_season``
    (asked by the replay: the pennant's penalty soli)."""
    return Meeting.objects.select_related("season", "host").with_season_start()
