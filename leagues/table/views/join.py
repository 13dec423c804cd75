"""Joining a table by scanning: the table's page with a QR code of its sheet's address (a
member scans it and logs in as usual), and for its scorekeepers the guest scorers' links of
that table: made for a guest by name, listed, each revoked with a tap
(leagues/table/scorer_links.py says how long a link works)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from leagues.clubs import names
from leagues.exceptions import InvalidInput
from leagues.models import Role, ScorerLink
from leagues.permissions import meeting_for
from leagues.table import scorer_links
from leagues.table.views.meeting import can_write, member_meeting


class GuestLinkForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("The guest's name"),
        max_length=names.MAX_LENGTH,
        help_text=gettext_lazy("Shown in the evening's history beside every hand the guest enters."),
        error_messages={"required": gettext_lazy("Please enter the guest's name.")},
    )


def _guest_address(request, link):
    token = scorer_links.token_of(link)
    return request.build_absolute_uri(reverse("guest_table", kwargs={"token": token, "pk": link.meeting_id}))


def _shown(request, links, shown):
    """The link ``shown`` (an id from the address) of ``links`` with its address and code,
    when it still works; else None."""
    link = next(
        (row["link"] for row in links if str(row["link"].pk) == shown and row["state"] == scorer_links.ACTIVE), None
    )
    if link is None:
        return None
    address = _guest_address(request, link)
    title = _("Code of %(name)s's scorer link") % {"name": link.name}
    return {"link": link, "address": address, "qr": scorer_links.qr_svg(address, title=title)}


def _join_page(request, meeting, membership, *, form=None, status=200):
    """The table's page: the code of its sheet for everyone; its links for a scorekeeper."""
    address = request.build_absolute_uri(meeting.get_absolute_url())
    keeper = can_write(membership)
    links = []
    if keeper:
        links = [
            {"link": link, "state": scorer_links.link_state(link)} for link in scorer_links.links_of(meeting=meeting)
        ]
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "sheet_address": address,
        "sheet_qr": scorer_links.qr_svg(address, title=_("Code of this table's sheet")),
        "keeper": keeper,
        "can_make": keeper and meeting.closed_at is None and not meeting.imported_totals,
        "form": form or GuestLinkForm(),
        "links": links,
        "shown": _shown(request, links, request.GET.get("shown")) if keeper else None,
    }
    return render(request, "meetings/join.html", context, status=status)


@login_required
@require_GET
def meeting_join(request, slug, pk):
    meeting, membership = member_meeting(request, slug, pk)
    return _join_page(request, meeting, membership)


@login_required
@require_POST
def scorer_link_make(request, slug, pk):
    """A scorekeeper makes a link for a guest; the page then shows its code and address."""
    meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER)
    form = GuestLinkForm(request.POST)
    if form.is_valid():
        try:
            link = scorer_links.make_link(meeting=meeting, name=form.cleaned_data["name"], by=request.user)
        except InvalidInput as error:
            for problem in error.errors:
                form.add_error("name" if problem["field"] == "name" else None, problem["message"])
        else:
            messages.success(request, _("Scorer link made for %(name)s.") % {"name": link.name})
            return redirect(reverse("meeting_join", args=[slug, pk]) + f"?shown={link.pk}#link-{link.pk}")
    return _join_page(request, meeting, membership, form=form, status=400)


@login_required
@require_POST
def scorer_link_revoke(request, slug, pk, link_pk):
    """A scorekeeper withdraws a link: from now on it enters no hand."""
    meeting, _membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER)
    link = get_object_or_404(ScorerLink, pk=link_pk, meeting=meeting)
    scorer_links.revoke_link(link=link, by=request.user)
    messages.success(request, _("%(name)s's scorer link is withdrawn.") % {"name": link.name})
    return redirect(reverse("meeting_join", args=[slug, pk]) + "#links")


urlpatterns = [
    path("l/<slug:slug>/m/<int:pk>/join/", meeting_join, name="meeting_join"),
    path("l/<slug:slug>/m/<int:pk>/join/links/", scorer_link_make, name="scorer_link_make"),
    path("l/<slug:slug>/m/<int:pk>/join/links/<int:link_pk>/revoke/", scorer_link_revoke, name="scorer_link_revoke"),
]
