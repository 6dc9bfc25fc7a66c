"""Removed with ``settle_payments``, whose old name it was. Kept one release as a stub
that says what to run instead."""

from claims.management.aliases import removed_command
from claims.management.commands.settle_payments import SETTLE_INSTEAD

Command = removed_command("liquidar_pagamentos", instead=SETTLE_INSTEAD)
