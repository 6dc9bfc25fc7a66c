"""Finance's pages in the admin (docs/ledger-pages.md): "Fechamentos mensais" with each
close's reports, summary and triangles, "Fechar mês", "Relatório em qualquer data",
"Movimentos do livro" (read only, for everybody), and the chart of accounts with its
mapping. Every page is the finance role's (``ledger.finance``) only."""

from ledger import admin_panels
from ledger.admin import accounts, closes, movements  # noqa: F401  (registers the admins)

# The card on the admin's home page; registered here, where the admin is loaded, as the
# card links to this package's pages.
admin_panels.install()
