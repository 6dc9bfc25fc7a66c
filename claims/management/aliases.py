"""Old names of management commands, kept for one release after a rename or a removal.

The commands speak one language, English (``import_sales``); the Portuguese names they
had (``import_vendas``) stay in cron tables, runbooks and operators' habits, so for one
release each old name still works. An alias is the new command itself under the old
name: it subclasses it, so arguments, options, output and exit status are the new
command's; it only adds one line on stderr saying what to run instead (and the same
words atop its help). Nothing of the logic is written twice, so the two names cannot
drift apart before the old one is removed.

A command removed outright (``settle_payments`` and its old name ``liquidar_pagamentos``,
when the bank's CNAB 240 return replaced its CSV) stays one release as a stub that does
nothing and fails with what to do instead (``removed_command``).
"""

from django.core.management.base import BaseCommand, CommandError


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


def removed_command(old: str, *, instead: str) -> type[BaseCommand]:
    """The command class to leave as ``old`` for one release after its removal: it does
    nothing and fails (exit status 1) saying ``instead`` what to do. A cron line or a
    runbook still naming it then stops loudly, with the way forward, rather than with
    Django's bare "Unknown command"; any arguments it is given are accepted, so the
    message is what the operator reads, not an argument error."""
    message = (f"O comando {old} foi removido e não faz mais nada. {instead} "
               f"O nome {old} deixa de existir na próxima versão.")

    class Removed(BaseCommand):
        help = f"Removido: {instead}"

        def add_arguments(self, parser):
            parser.add_argument("args", nargs="*", help="ignorados")

        def handle(self, *args, **options):
            raise CommandError(message)

    return Removed
