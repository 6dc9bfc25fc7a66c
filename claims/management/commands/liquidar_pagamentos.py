"""Deprecated: ``settle_payments`` under its old name, until the next release removes it."""

from claims.management.aliases import deprecated_alias
from claims.management.commands.settle_payments import Command as SettlePayments

Command = deprecated_alias(SettlePayments, old="liquidar_pagamentos", new="settle_payments")
