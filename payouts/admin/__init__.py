"""Money out in the admin: the paying accounts and the "Remessas" page (treasury only:
bank data and files), the payment orders (treasury and supervisors, bank data for
treasury only) and the "Conciliação" page (docs/payouts-pages.md)."""

from payouts.admin import accounts, orders, remittances  # noqa: F401  (registers the admins)
