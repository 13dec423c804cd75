"""The framework floor: a logged-in page that renders a one-line template through the same
middleware, session and login as every other page, and reads nothing of a league.

`make bench-league` and `make bench-load` give every page as a multiple of it, so that a
figure says what a page costs beyond Django itself on that machine. No page links to it."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET


@require_GET
@login_required
def floor(request):
    return render(request, "floor.html")


urlpatterns = [
    path("bench/floor/", floor, name="floor"),
]
