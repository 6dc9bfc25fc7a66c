"""Removed: the bank's CSV of settled payments gave way to its CNAB 240 return file
(``manage.py bank_return``). Kept one release as a stub that says so."""

from claims.management.aliases import removed_command

SETTLE_INSTEAD = (
    "O que foi pago por arquivo é liquidado pelo retorno do banco (CNAB 240): "
    "manage.py bank_return ARQUIVO. Exceções (um cheque, um depósito judicial): no admin, "
    "no sinistro, “Liquidar pagamento”, com o motivo.")

Command = removed_command("settle_payments", instead=SETTLE_INSTEAD)
