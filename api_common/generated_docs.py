"""Docs that the code owns (the problem types, the workflow's table) are written from
the code by a management command, never by hand: ``make docs`` rewrites them and the
test suite runs each command with ``--check``, which fails while a file is stale."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class GeneratedDocCommand(BaseCommand):
    """Writes ``path`` (relative to the project) from ``render()``; with ``section``, only
    the lines between ``<!-- section:start -->`` and ``<!-- section:end -->`` in it (a
    table inside a hand-written page)."""

    path: str
    section: str = ""
    help = "Escreve o documento a partir do código (--check: só confere)."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="Falha, sem escrever, se o arquivo não estiver em dia.")

    def render(self) -> str:
        raise NotImplementedError

    def handle(self, *args, check: bool = False, **options):
        target = Path(settings.BASE_DIR) / self.path
        current = target.read_text(encoding="utf-8") if target.exists() else None
        text = self.render() if not self.section else self._in_page(current or "")
        if check:
            if current != text:
                raise CommandError(f"{self.path} está desatualizado: rode `make docs`.")
            return
        if current != text:
            target.write_text(text, encoding="utf-8")
            self.stdout.write(f"{self.path} escrito.")

    def _in_page(self, page: str) -> str:
        start, end = f"<!-- {self.section}:start -->\n", f"<!-- {self.section}:end -->"
        before, found, rest = page.partition(start)
        _, found_end, after = rest.partition(end)
        if not (found and found_end):
            raise CommandError(f"{self.path} não tem os marcadores {start.strip()} e {end}.")
        return before + start + self.render() + end + after
