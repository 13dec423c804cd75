"""Sign-up, joining, login lock-out and API tokens."""

from leagues.accounts.views import account, tokens

urlpatterns = [
    *account.urlpatterns,
    *tokens.urlpatterns,
]
