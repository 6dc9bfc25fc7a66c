"""Old names of management commands, kept for one release after a rename.

The commands speak one language, English (``import_sales``, ``settle_payments``); the
Portuguese names they had (``import_vendas``, ``liquidar_pagamentos``) stay in cron
tables, runbooks and operators' habits, so for one release each old name still works.
An alias is the new command itself under the old name: it subclasses it, so arguments,
options, output and exit status are the new command's; it only adds one line on stderr
saying what to run instead (and the same words atop its help). Nothing of the logic is
written twice, so the two names cannot drift apart before the old one is removed.
"""

from django.core.management.base import BaseCommand


def deprecated_alias(command: type[BaseCommand], *, old: str, new: str) -> type[BaseCommand]:
    """The command class to expose as ``old``: ``command`` (registered as ``new``), which
    first says on stderr that ``old`` is deprecated and will be removed in the next
    release."""
    notice = (f"Aviso: o comando {old} está obsoleto e será removido na próxima versão; "
              f"use {new} (mesmos argumentos).")

    class Alias(command):
        help = f"Obsoleto: use {new}; {old} será removido na próxima versão. {command.help}"

        def handle(self, *args, **options):
            # Here rather than in execute(): self.stderr is the caller's stream only once
            # execute() has applied the stderr option (call_command's, or the terminal).
            self.stderr.write(notice)
            return super().handle(*args, **options)

    return Alias
