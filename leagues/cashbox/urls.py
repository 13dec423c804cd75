"""A league's money: the cashbox's ledger, a member's bank account, paying by scan."""

from leagues.cashbox.views import ledger, paying, settling

urlpatterns = [
    *ledger.urlpatterns,
    *paying.urlpatterns,
    *settling.urlpatterns,
]
