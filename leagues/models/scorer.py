"""Guest scorers: a link that lets someone without an account enter the hands of one table for
one evening (leagues/table/scorer_links.py makes, checks and revokes them).

The link is this row; the address a guest opens carries a signed token naming the row's id
and its nonce, so nothing in the database is a secret, and a link stops working by a change
of its row: revoked, expired, or its table's evening ended.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .league import who_field
from .meeting import Meeting


def new_nonce():
    return secrets.token_urlsafe(9)


class ScorerLink(models.Model):
    meeting = models.ForeignKey(Meeting, on_delete=models.CASCADE, related_name="scorer_links")
    # Who the guest is: shown on the table's list of links and in the history of every hand he
    # enters (Hand history's ``history_user_name``, as long as a name there may be).
    name = models.CharField(_("name"), max_length=who_field().max_length)
    # Signed into the token with the id: a token made for a row of another database that
    # happens to have this id does not open this one.
    nonce = models.CharField(max_length=16, default=new_nonce)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("valid until"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["meeting", "created_at", "id"]

    def __str__(self):
        return f"{self.meeting} · {self.name}"
