"""A rule set's versions: drafts, the four eyes, frozen publications, the version every
decision names; the modes need a published version."""

import pytest

from decisions.errors import RulesNotAllowed
from decisions.models import Rule, RuleSet, RuleSetVersion
from decisions.services import versions
from tests.support.lifecycle import staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return (staff("sofia", "Supervisor de sinistros"), staff("rita", "Supervisor de sinistros"),
            staff("ana", "Analista de sinistros"))


@pytest.fixture
def rule_set():
    return RuleSet.objects.create(name="Teste", coverage_name="cobertura/perda-de-renda",
                                  nature="perda-de-renda-desemprego")


def draft_with_rows(rule_set, author, *rows):
    draft = versions.new_draft(rule_set_id=rule_set.pk, user=author)
    for i, (conditions, decision) in enumerate(rows, start=1):
        Rule.objects.create(version=draft, position=i, conditions=conditions, decision=decision,
                            reason=f"Regra {i}")
    return draft


def test_one_supervisor_asks_a_second_approves_and_the_old_version_retires(rule_set, people):
    sofia, rita, _ = people
    first = draft_with_rows(rule_set, sofia, ("prestamista: true", "aprovar"))
    versions.submit(version_id=first.pk, user=sofia)
    with pytest.raises(RulesNotAllowed, match="Quatro olhos"):
        versions.approve(version_id=first.pk, user=sofia)
    versions.approve(version_id=first.pk, user=rita)
    first.refresh_from_db()
    assert (first.status, first.approved_by, first.number) == ("publicada", rita, 1)

    second = versions.new_draft(rule_set_id=rule_set.pk, user=rita)
    assert [r.conditions for r in second.rules.all()] == ["prestamista: true"]  # copied
    versions.submit(version_id=second.pk, user=rita)
    versions.approve(version_id=second.pk, user=sofia)
    first.refresh_from_db()
    assert first.status == RuleSetVersion.Status.RETIRED
    assert rule_set.versions.get(status="publicada").number == 2


def test_who_asked_cannot_approve_nor_who_wrote(rule_set, people):
    sofia, rita, _ = people
    draft = draft_with_rows(rule_set, sofia, ("prestamista: true", "aprovar"))
    versions.submit(version_id=draft.pk, user=rita)  # rita asks for sofia's draft
    for person in (sofia, rita):
        with pytest.raises(RulesNotAllowed, match="Quatro olhos"):
            versions.approve(version_id=draft.pk, user=person)


def test_a_table_the_engine_cannot_run_is_never_published(rule_set, people):
    sofia, _, _ = people
    draft = draft_with_rows(rule_set, sofia, ("valor: >>> 3", "aprovar"))
    with pytest.raises(RulesNotAllowed, match="expressão inválida"):
        versions.submit(version_id=draft.pk, user=sofia)
    empty = versions.new_draft(rule_set_id=rule_set.pk, user=sofia)
    Rule.objects.filter(version=empty).delete()
    with pytest.raises(RulesNotAllowed, match="não tem regras"):
        versions.submit(version_id=empty.pk, user=sofia)


def test_sent_back_it_is_a_draft_again(rule_set, people):
    sofia, rita, _ = people
    draft = draft_with_rows(rule_set, sofia, ("prestamista: true", "aprovar"))
    versions.submit(version_id=draft.pk, user=sofia)
    versions.send_back(version_id=draft.pk, user=rita, reason="Falta a carência")
    draft.refresh_from_db()
    assert draft.status == "rascunho" and "Falta a carência" in draft.note


def test_an_analyst_neither_writes_nor_publishes(rule_set, people):
    _, _, ana = people
    with pytest.raises(RulesNotAllowed):
        versions.new_draft(rule_set_id=rule_set.pk, user=ana)


def test_a_mode_other_than_off_needs_a_published_version(rule_set, people):
    sofia, rita, _ = people
    with pytest.raises(RulesNotAllowed, match="Publique uma versão"):
        versions.set_mode(rule_set_id=rule_set.pk, user=sofia, mode=RuleSet.Mode.ON)
    draft = draft_with_rows(rule_set, sofia, ("prestamista: true", "aprovar"))
    versions.submit(version_id=draft.pk, user=sofia)
    versions.approve(version_id=draft.pk, user=rita)
    assert versions.set_mode(rule_set_id=rule_set.pk, user=sofia, mode="sombra").mode == "sombra"
