"""Deprecated: ``import_sales`` under its old name, until the next release removes it."""

from claims.management.aliases import deprecated_alias
from claims.management.commands.import_sales import Command as ImportSales

Command = deprecated_alias(ImportSales, old="import_vendas", new="import_sales")
