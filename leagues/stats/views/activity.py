"""A league's activity page: who changed what and when, for its members, newest
first, a page at a time (leagues/stats/activity.py reads it)."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from leagues.permissions import league_for
from leagues.stats import activity


class PageForm(forms.Form):
    """The page asked for: ``before`` is the cursor an "Older" link carries (none: the newest).
    Kept beside its only view: the cursor is this page's own, not something a person types."""

    before = forms.CharField(required=False, max_length=60, label=gettext_lazy("page"))

    def clean_before(self):
        text = self.cleaned_data["before"]
        if not text:
            return None
        try:
            return activity.parse_cursor(text)
        except ValueError:
            raise forms.ValidationError(_("This is not a page of the activity: start again from the newest.")) from None


@require_GET
@login_required
def league_activity(request, slug):
    league, _membership = league_for(user=request.user, slug=slug)
    form = PageForm(request.GET)
    if not form.is_valid():
        message = " ".join(e for errors in form.errors.values() for e in errors)
        return render(request, "400.html", {"message": message}, status=400)
    cursor = form.cleaned_data["before"]
    page = activity.activity_page(league=league, cursor=cursor, size=activity.PAGE_SIZE)
    return render(request, "activity/activity.html", {"league": league, "page": page, "first_page": cursor is None})


urlpatterns = [
    path("l/<slug:slug>/activity/", league_activity, name="league_activity"),
]
