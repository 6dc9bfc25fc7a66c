"""The rule sets and their versions in the admin: the mode through its service, a draft's
rows editable and a published version's not, the four eyes, the JDM export."""

import json

import pytest

from decisions.models import Rule, RuleSet, RuleSetVersion
from tests.decisions.support import UNEMPLOYMENT
from tests.support.lifecycle import logged_in, page_messages

pytestmark = pytest.mark.django_db


def rule_set():
    return RuleSet.objects.get(nature=UNEMPLOYMENT)


def test_the_rule_sets_list_in_words_and_the_mode_through_its_service(rules_on, sofia, ana):
    page = logged_in(sofia).get("/admin/decisions/ruleset/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Perda de renda (Perda de renda por desemprego)" in text
    assert "Ligado (decide e paga)" in text and ">v1<" in text
    change = logged_in(sofia).get(f"/admin/decisions/ruleset/{rule_set().pk}/change/")
    assert "Mudar o modo" in change.content.decode() and "Novo rascunho" in change.content.decode()

    answer = logged_in(sofia).post(f"/admin/decisions/ruleset/{rule_set().pk}/modo/",
                                   {"mode": "sombra"})
    assert answer.status_code == 302 and rule_set().mode == "sombra"

    # An analyst reads, and changes nothing.
    read = logged_in(ana).get(f"/admin/decisions/ruleset/{rule_set().pk}/change/").content.decode()
    assert "Perda de renda" in read and "Mudar o modo" not in read and "Novo rascunho" not in read
    assert logged_in(ana).post(f"/admin/decisions/ruleset/{rule_set().pk}/modo/",
                               {"mode": "ligado"}).status_code == 403
    assert rule_set().mode == "sombra"


def test_turning_on_a_set_with_no_published_version_is_a_message(sofia):
    empty = RuleSet.objects.create(name="Morte acidental", coverage_name="cobertura/morte",
                                   nature="morte-acidental")
    client = logged_in(sofia)
    answer = client.post(f"/admin/decisions/ruleset/{empty.pk}/modo/", {"mode": "ligado"})
    assert answer.status_code == 302
    assert "Publique uma versão antes de ligar as regras" in page_messages(client, answer)
    empty.refresh_from_db()
    assert empty.mode == "desligado"


def rows_post(version, rows: list[dict]) -> dict:
    """The version's change form as the browser sends it: its note and its rows."""
    data = {"note": version.note, "rules-TOTAL_FORMS": str(len(rows)),
            "rules-INITIAL_FORMS": str(sum(1 for row in rows if row.get("id"))),
            "rules-MIN_NUM_FORMS": "0", "rules-MAX_NUM_FORMS": "1000"}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"rules-{i}-{key}"] = value
        data[f"rules-{i}-version"] = str(version.pk)
    return data


def new_draft(client) -> RuleSetVersion:
    answer = client.post(f"/admin/decisions/ruleset/{rule_set().pk}/novo-rascunho/",
                         {"note": "Carência de 120 dias"})
    draft = RuleSetVersion.objects.get(rule_set=rule_set(), status="rascunho")
    assert answer.status_code == 302
    assert answer.url == f"/admin/decisions/rulesetversion/{draft.pk}/change/"
    return draft


def test_a_draft_is_written_then_published_by_a_second_supervisor(rules_on, sofia, bruno):
    author = logged_in(sofia)
    draft = new_draft(author)
    page = author.get(f"/admin/decisions/rulesetversion/{draft.pk}/change/").content.decode()
    # Its rows are a form, with the catalogue of facts beside them.
    assert 'name="rules-0-conditions"' in page
    assert "dias_desde_inicio_vigencia" in page
    assert "Dias do início da vigência à ocorrência (carência)" in page
    assert "Pedir publicação" in page

    first = draft.rules.order_by("position", "id").first()
    rows = [{"id": str(rule.pk), "position": str(rule.position), "conditions": rule.conditions,
             "decision": rule.decision, "reason": rule.reason}
            for rule in draft.rules.order_by("position", "id")]
    rows[0]["conditions"] = "dias_desde_inicio_vigencia: < 120"
    saved = author.post(f"/admin/decisions/rulesetversion/{draft.pk}/change/", rows_post(draft, rows))
    assert saved.status_code == 302, saved.content.decode()[:3000]
    first.refresh_from_db()
    assert first.conditions == "dias_desde_inicio_vigencia: < 120"

    author.post(f"/admin/decisions/rulesetversion/{draft.pk}/pedir-publicacao/")
    draft.refresh_from_db()
    assert draft.status == "aguardando-aprovacao"

    # The author cannot approve: the service's words on the page.
    refused = author.post(f"/admin/decisions/rulesetversion/{draft.pk}/aprovar/")
    assert "Quatro olhos" in page_messages(author, refused)
    draft.refresh_from_db()
    assert draft.status == "aguardando-aprovacao"

    approved = logged_in(bruno).post(f"/admin/decisions/rulesetversion/{draft.pk}/aprovar/")
    assert approved.status_code == 302
    draft.refresh_from_db()
    assert (draft.status, draft.approved_by) == ("publicada", bruno)
    assert RuleSetVersion.objects.get(rule_set=rule_set(), number=1).status == "substituida"


def test_a_second_supervisor_sends_a_version_back_with_a_reason(rules_on, sofia, bruno):
    author = logged_in(sofia)
    draft = new_draft(author)
    author.post(f"/admin/decisions/rulesetversion/{draft.pk}/pedir-publicacao/")
    reviewer = logged_in(bruno)
    without = reviewer.post(f"/admin/decisions/rulesetversion/{draft.pk}/devolver/", {"reason": " "})
    assert "Diga por que a versão volta a rascunho" in page_messages(reviewer, without)
    reviewer.post(f"/admin/decisions/rulesetversion/{draft.pk}/devolver/",
                  {"reason": "Falta a regra do saldo devedor"})
    draft.refresh_from_db()
    assert draft.status == "rascunho" and "Falta a regra do saldo devedor" in draft.note


def test_published_rows_are_read_only(rules_on, sofia):
    published = RuleSetVersion.objects.get(rule_set=rule_set(), status="publicada")
    client = logged_in(sofia)
    page = client.get(f"/admin/decisions/rulesetversion/{published.pk}/change/")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'name="rules-0-conditions"' not in text and "Pedir publicação" not in text
    rule = published.rules.first()
    assert rule.reason in text
    rows = [{"id": str(rule.pk), "position": "1", "conditions": "valor: < 1",
             "decision": "aprovar", "reason": "mudada"}]
    answer = client.post(f"/admin/decisions/rulesetversion/{published.pk}/change/",
                         rows_post(published, rows))
    assert answer.status_code == 403
    rule.refresh_from_db()
    assert rule.reason != "mudada"


def test_a_row_with_an_unknown_fact_is_a_form_error_and_an_empty_draft_cannot_be_submitted(
        rules_on, sofia):
    client = logged_in(sofia)
    draft = new_draft(client)
    rows = [{"position": "99", "conditions": "idade_do_gato: > 3", "decision": "aprovar",
             "reason": "Gato velho"}]
    answer = client.post(f"/admin/decisions/rulesetversion/{draft.pk}/change/",
                         rows_post(draft, rows) | {"rules-INITIAL_FORMS": "0"})
    assert answer.status_code == 200
    assert "o fato “idade_do_gato” não existe" in answer.content.decode()
    assert not Rule.objects.filter(version=draft, reason="Gato velho").exists()

    Rule.objects.filter(version=draft).delete()
    refused = client.post(f"/admin/decisions/rulesetversion/{draft.pk}/pedir-publicacao/")
    assert "A versão não tem regras." in page_messages(client, refused)
    draft.refresh_from_db()
    assert draft.status == "rascunho"


def test_an_analyst_reads_a_version_and_cannot_act(rules_on, ana):
    published = RuleSetVersion.objects.get(rule_set=rule_set(), status="publicada")
    client = logged_in(ana)
    page = client.get(f"/admin/decisions/rulesetversion/{published.pk}/change/")
    assert page.status_code == 200 and "Aprovar publicação" not in page.content.decode()
    assert client.post(f"/admin/decisions/rulesetversion/{published.pk}/pedir-publicacao/"
                       ).status_code == 403
    assert client.get(f"/admin/decisions/rulesetversion/{published.pk}/simular/").status_code == 403
    assert client.post(f"/admin/decisions/ruleset/{published.rule_set_id}/novo-rascunho/"
                       ).status_code == 403


def test_the_table_exports_as_jdm_for_the_open_editor(rules_on, ana):
    published = RuleSetVersion.objects.get(rule_set=rule_set(), status="publicada")
    answer = logged_in(ana).get(f"/admin/decisions/rulesetversion/{published.pk}/jdm/")
    assert answer.status_code == 200
    assert "attachment" in answer["Content-Disposition"] and answer["Content-Disposition"].endswith('-v1.json"')
    graph = json.loads(answer.content)
    table = next(node for node in graph["nodes"] if node["type"] == "decisionTableNode")
    assert table["content"]["hitPolicy"] == "collect"
    assert len(table["content"]["rules"]) == published.rules.count()


def test_a_supervisor_adds_a_rule_set_for_a_coverage_of_the_catalogue(sofia, ana):
    client = logged_in(sofia)
    form = client.get("/admin/decisions/ruleset/add/").content.decode()
    assert "Invalidez permanente" in form
    answer = client.post("/admin/decisions/ruleset/add/", {
        "name": "Morte natural simples", "coverage_name": "cobertura/morte",
        "nature": "morte-natural", "description": ""})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    made = RuleSet.objects.get(name="Morte natural simples")
    assert (made.coverage_name, made.nature, made.mode) == ("cobertura/morte", "morte-natural",
                                                            "desligado")
    page = client.get(f"/admin/decisions/ruleset/{made.pk}/change/").content.decode()
    assert "Morte (Morte natural)" in page and "cobertura/morte" not in page
    assert logged_in(ana).post("/admin/decisions/ruleset/add/", {
        "name": "x", "coverage_name": "cobertura/morte"}).status_code == 403
