"""Install the product's default rule sets, published (as an operator does after the
insurer reviewed them), in the mode given. Idempotent: a rule set whose published
version already holds the same rows keeps it and only takes the mode."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from decisions.defaults import default_rule_sets
from decisions.engine import RulesInvalid
from decisions.errors import RulesNotAllowed
from decisions.models import RuleSet, RuleSetVersion
from decisions.services import versions


MODES = {"off": RuleSet.Mode.OFF, "shadow": RuleSet.Mode.SHADOW, "on": RuleSet.Mode.ON}


class Command(BaseCommand):
    help = "Instala os conjuntos de regras padrão (desemprego no prestamista, morte natural)."

    def add_arguments(self, parser):
        parser.add_argument("--mode", choices=[*MODES, *RuleSet.Mode.values], default="shadow",
                            help="off, shadow ou on (desligado, sombra, ligado); padrão: shadow")
        parser.add_argument("--only", help="só o conjunto desta natureza (ex.: morte-natural)")

    def handle(self, *args, mode, only=None, **options):
        mode = MODES.get(mode, mode)
        wanted = [d for d in default_rule_sets() if only in (None, d["natureza"])]
        if not wanted:
            raise CommandError(f"Nenhum conjunto padrão com a natureza {only!r}.")
        for data in wanted:
            try:
                with transaction.atomic():
                    line = install(data, mode=mode)
            except (RulesInvalid, RulesNotAllowed) as exc:
                raise CommandError(f"{data['nome']}: {exc}") from None
            self.stdout.write(line)


def install(data: dict, *, mode: str) -> str:
    rule_set, _ = RuleSet.objects.get_or_create(
        coverage_name=data["cobertura"], nature=data["natureza"],
        defaults={"name": data["nome"], "description": data["descricao"]})
    published = rule_set.versions.filter(status=RuleSetVersion.Status.PUBLISHED).first()
    same = published is not None and [
        (r.conditions, r.decision, r.reason) for r in published.rules.all()] == [
        (r["condicoes"], r["decisao"], r["motivo"]) for r in data["regras"]]
    if not same:
        published = versions.install(rule_set=rule_set, rows=data["regras"],
                                     note="Regras padrão do produto.", by="load_default_rules")
    rule_set.mode = mode
    rule_set.save(update_fields=["mode"])
    verb = "já instalado" if same else "instalado"
    return (f"{rule_set.name}: v{published.number} {verb}, "
            f"modo {rule_set.get_mode_display().lower()}.")
