"""Personal API tokens, under the account menu: make one (shown once), see and revoke them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from leagues.accounts import tokens
from leagues.accounts.forms import ApiTokenForm
from leagues.models import ApiToken


@never_cache  # the page that shows a new token must not be kept by a cache
@login_required
@require_http_methods(["GET", "POST"])
def token_list(request):
    form = ApiTokenForm(request.POST or None)
    new_token, status = None, 200
    if request.method == "POST":
        if form.is_valid():
            if ApiToken.objects.live().filter(user=request.user).count() >= tokens.MAX_LIVE_TOKENS:
                form.add_error(None, _("You have %(n)s tokens: revoke one first.") % {"n": tokens.MAX_LIVE_TOKENS})
                status = 400
            else:
                _row, new_token = tokens.create_token(
                    user=request.user, name=form.cleaned_data["name"], days=form.cleaned_data["expires"]
                )
                form = ApiTokenForm()
        else:
            status = 400
    context = {
        "form": form,
        "new_token": new_token,
        "tokens": ApiToken.objects.filter(user=request.user),
    }
    return render(request, "tokens/tokens.html", context, status=status)


@login_required
@require_POST
def token_revoke(request, pk):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    tokens.revoke_token(token=token)
    messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("api_tokens")


urlpatterns = [
    path("accounts/tokens/", token_list, name="api_tokens"),
    path("accounts/tokens/<int:pk>/revoke/", token_revoke, name="api_token_revoke"),
]
