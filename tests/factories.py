"""factory_boy factories shared by the whole suite."""

import datetime

import factory
from django.contrib.auth import get_user_model

from leagues.models import League, Membership, Player, Role

PASSWORD = "kartenliga-test-pw"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Sequence(lambda n: f"Spieler{n}")

    @factory.post_generation
    def password(user, create, extracted, **kwargs):
        user.set_password(extracted or PASSWORD)
        if create:
            user.save(update_fields=["password"])


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"Stammtisch {n}")
    slug = factory.Sequence(lambda n: f"stammtisch-{n}")
    game = "doppelkopf"
    variant = "club"
    rule_overrides = factory.LazyFunction(dict)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    league = factory.SubFactory(LeagueFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.MEMBER


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


def member(league, role=Role.MEMBER, **user_kwargs):
    """A user holding ``role`` in ``league`` (with a player of his own), for view tests."""
    user = UserFactory(**user_kwargs)
    MembershipFactory(league=league, user=user, role=role)
    PlayerFactory(league=league, user=user, name=user.first_name or user.username)
    return user


def meeting_for(league, names, *, date=None, **kwargs):
    """A started meeting of ``league`` with players called ``names`` (host first)."""
    from leagues.table.meetings import start_meeting

    players = [Player.objects.get_or_create(league=league, name=name)[0] for name in names]
    return start_meeting(league=league, date=date or datetime.date(2026, 11, 20), players=players, **kwargs)


def night_for(league, tables, *, date=None, host=None, **kwargs):
    """A started club night of ``league``: ``tables`` lists each table's player names in seat
    order; the host is the first player of the first table unless named."""
    from leagues.table.nights import open_club_night

    seated = [[Player.objects.get_or_create(league=league, name=name)[0] for name in names] for names in tables]
    host = Player.objects.get(league=league, name=host) if host else seated[0][0]
    return open_club_night(league=league, date=date or datetime.date(2026, 11, 20), host=host, tables=seated, **kwargs)
