"""Versions of a rule set: drafted, asked to be published by one supervisor and approved
by a second (four eyes), then frozen. Publishing retires the version it replaces; the
decisions already taken keep naming theirs."""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from decisions import engine
from decisions.errors import RulesNotAllowed
from decisions.models import Rule, RuleSet, RuleSetVersion
from decisions.services.rules import rows_of

EDIT = "decisions.edit_rules"
PUBLISH = "decisions.publish_rules"


def _require(user, perm: str, why: str) -> None:
    if user is not None and not user.has_perm(perm):
        raise RulesNotAllowed(why)


@transaction.atomic
def new_draft(*, rule_set_id, user, note: str = "") -> RuleSetVersion:
    """A draft copying the published version's rows (or empty), numbered next."""
    _require(user, EDIT, "Somente supervisores de sinistros escrevem regras.")
    rule_set = RuleSet.objects.select_for_update().get(pk=rule_set_id)
    number = (rule_set.versions.aggregate(top=Max("number"))["top"] or 0) + 1
    draft = RuleSetVersion.objects.create(rule_set=rule_set, number=number, note=note,
                                          created_by=user)
    published = rule_set.versions.filter(status=RuleSetVersion.Status.PUBLISHED).first()
    if published is not None:
        Rule.objects.bulk_create(
            Rule(version=draft, position=rule.position, conditions=rule.conditions,
                 decision=rule.decision, reason=rule.reason) for rule in published.rules.all())
    return draft


def check(version: RuleSetVersion) -> None:
    """Every row parses and the engine builds the table; raises ``RulesNotAllowed``
    naming the row and the problem."""
    rows = list(version.rules.all())
    if not rows:
        raise RulesNotAllowed("A versão não tem regras.")
    try:
        engine.compile_rows(rows_of(version))
    except engine.RulesInvalid as exc:
        raise RulesNotAllowed(str(exc)) from None


@transaction.atomic
def submit(*, version_id, user) -> RuleSetVersion:
    """Ask to publish a draft: it freezes, and waits for a second supervisor."""
    _require(user, PUBLISH, "Somente supervisores pedem a publicação de regras.")
    version = _locked(version_id)
    if version.status != RuleSetVersion.Status.DRAFT:
        raise RulesNotAllowed(f"A versão {version.number} não é um rascunho "
                              f"({version.get_status_display().lower()}).")
    check(version)
    version.status, version.submitted_by, version.submitted_at = (
        RuleSetVersion.Status.AWAITING_APPROVAL, user, timezone.now())
    version.save(update_fields=["status", "submitted_by", "submitted_at"])
    return version


@transaction.atomic
def approve(*, version_id, user) -> RuleSetVersion:
    """A second supervisor publishes it; the version it replaces is retired."""
    _require(user, PUBLISH, "Somente supervisores aprovam regras.")
    version = _locked(version_id)
    if version.status != RuleSetVersion.Status.AWAITING_APPROVAL:
        raise RulesNotAllowed(f"A versão {version.number} não aguarda aprovação.")
    if user is not None and user.pk in (version.submitted_by_id, version.created_by_id):
        raise RulesNotAllowed("Quatro olhos: quem escreveu ou pediu a publicação não aprova; "
                              "outro supervisor aprova.")
    check(version)
    _publish(version, approved_by=user)
    return version


@transaction.atomic
def send_back(*, version_id, user, reason: str) -> RuleSetVersion:
    """The second supervisor does not approve: the version is a draft again."""
    _require(user, PUBLISH, "Somente supervisores decidem a publicação de regras.")
    if not reason.strip():
        raise RulesNotAllowed("Diga por que a versão volta a rascunho.")
    version = _locked(version_id)
    if version.status != RuleSetVersion.Status.AWAITING_APPROVAL:
        raise RulesNotAllowed(f"A versão {version.number} não aguarda aprovação.")
    version.status, version.submitted_by, version.submitted_at = (
        RuleSetVersion.Status.DRAFT, None, None)
    version.note = f"{version.note}\nDevolvida: {reason.strip()}".strip()
    version.save(update_fields=["status", "submitted_by", "submitted_at", "note"])
    return version


def install(*, rule_set: RuleSet, rows: list[dict], note: str, by: str) -> RuleSetVersion:
    """An operator installs reviewed rules as published (load_default_rules): the caller
    holds the transaction. Rows: {"condicoes", "decisao", "motivo"}."""
    RuleSet.objects.select_for_update().get(pk=rule_set.pk)
    number = (rule_set.versions.aggregate(top=Max("number"))["top"] or 0) + 1
    version = RuleSetVersion.objects.create(rule_set=rule_set, number=number, note=note,
                                            installed_by=by)
    Rule.objects.bulk_create(
        Rule(version=version, position=i, conditions=row["condicoes"], decision=row["decisao"],
             reason=row["motivo"]) for i, row in enumerate(rows, start=1))
    check(version)
    _publish(version, approved_by=None)
    return version


def _publish(version: RuleSetVersion, *, approved_by) -> None:
    RuleSetVersion.objects.filter(rule_set_id=version.rule_set_id,
                                  status=RuleSetVersion.Status.PUBLISHED).update(
        status=RuleSetVersion.Status.RETIRED)
    version.status, version.approved_by, version.published_at = (
        RuleSetVersion.Status.PUBLISHED, approved_by, timezone.now())
    version.save(update_fields=["status", "approved_by", "published_at"])


def _locked(version_id) -> RuleSetVersion:
    rule_set_id = RuleSetVersion.objects.filter(pk=version_id).values_list("rule_set_id", flat=True).first()
    if rule_set_id is None:
        raise RulesNotAllowed("Versão não encontrada.")
    RuleSet.objects.select_for_update().get(pk=rule_set_id)  # one publication at a time
    return RuleSetVersion.objects.select_for_update().get(pk=version_id)


@transaction.atomic
def set_mode(*, rule_set_id, user, mode: str) -> RuleSet:
    _require(user, "decisions.switch_rules", "Somente supervisores mudam o modo das regras.")
    rule_set = RuleSet.objects.select_for_update().get(pk=rule_set_id)
    if mode != RuleSet.Mode.OFF and not rule_set.versions.filter(
            status=RuleSetVersion.Status.PUBLISHED).exists():
        raise RulesNotAllowed("Publique uma versão antes de ligar as regras ou pô-las em sombra.")
    rule_set.mode = RuleSet.Mode(mode)
    rule_set.save(update_fields=["mode"])
    return rule_set
