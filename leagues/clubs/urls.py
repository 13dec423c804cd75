"""A league: founding it, its page, members, invites and rules."""

from leagues.clubs.views import leagues, rules

urlpatterns = [
    *leagues.urlpatterns,
    *rules.urlpatterns,
]
