"""Shared by the analysts' lifecycle tests (their fixtures live in tests/conftest.py):
staff users of each role, claims brought to a given status through the real API and upload flow, and posting an admin action the
way the browser does."""

import importlib
from html.parser import HTMLParser
from urllib.parse import urlparse

from django.apps import apps as global_apps
from django.contrib import messages
from django.contrib.messages.storage.base import Message
from django.contrib.auth.models import Group, Permission, User
from django.test import Client
from rest_framework.test import APIClient

from claims import roles
from decisions import roles as decisions_roles
from ledger import roles as ledger_roles
from payouts import roles as payouts_roles
from privacy import roles as privacy_roles
from workbench import roles as workbench_roles
from claims.models import Claim, ClaimHistory, Event
from claims.workflow import TimelineEntry
from tests.support.documents import OPEN_BODY, PDF, upload_body
from tests.support.factories import DocumentRequirementFactory

# The SRO's grant lives in its migration only (the app has no roles module).
SRO_ROLES = importlib.import_module("sro.migrations.0002_roles")

# The default claim is a natural death: its heir, as the channel names her (the API)...
HEIR_DETAILS = {
    "beneficiario": {"tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725",
                     "parentesco": "conjuge", "participacao": 100},
    "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}},
}
# ... and as the analyst's payment form carries her (the admin).
VALID_PIX = {
    "beneficiario_tipo": "outro", "beneficiario_nome": "Maria da Silva",
    "beneficiario_cpf_ou_cnpj": "52998224725", "metodo_pagamento": "pix",
    "pix_chave": "maria@example.com",
}
CREDITOR_TED = {
    "beneficiario_tipo": "credor", "beneficiario_nome": "Banco Exemplo S.A.",
    "beneficiario_cpf_ou_cnpj": "11222333000181", "metodo_pagamento": "ted",
    "banco": "001", "agencia": "1234", "conta": "567890", "conta_digito": "1",
}


# A reasoned denial's code and clause (claims.denials), for tests about something else.
DENIAL = {"code": "1", "clause": "Cláusula 5.2 das Condições Gerais"}
DENIAL_ARGUMENTS = {"code": 1, "clause": "Cláusula 5.2 das Condições Gerais"}


def paying(claim: Claim, amount: str, payee: dict = VALID_PIX) -> dict:
    """The payment form's data for ``amount`` to ``payee`` (VALID_PIX: the heir Maria da
    Silva), towards the share of the beneficiary with the payee's tax id; on a claim that
    has none yet, that heir is recorded first, with the whole share."""
    from tests.support.factories import BeneficiaryFactory

    heir = BeneficiaryFactory(claim=claim, tax_id=payee["beneficiario_cpf_ou_cnpj"],
                              name=payee["beneficiario_nome"])
    return {"amount": amount, "beneficiary": str(heir.pk), **payee}


def restore_roles() -> None:
    """The analysts' and supervisors' groups as the migrations leave them, every app's
    part included (the SRO's and payouts' too: without them a supervisor made after a
    flush saw no SRO card on the dashboard)."""
    roles.sync_roles(Group, Permission)
    workbench_roles.sync_roles(Group, Permission)
    decisions_roles.sync_roles(Group, Permission)
    payouts_roles.sync_roles(Group, Permission)
    SRO_ROLES.grant(global_apps, None)


def staff(username: str, role: str | None) -> User:
    user = User.objects.create_user(username, f"{username}@example.com", "senha-forte-123",
                                    is_staff=True, first_name=username.capitalize())
    if role:
        if role in roles.ROLES and not all(
                Group.objects.filter(name=role, permissions__content_type__app_label=app).exists()
                for app in ("claims", "decisions", "workbench")):
            # A transactional test flushed the tables (and the migration's groups) before,
            # or another app's roles re-made the group with only their own permissions.
            restore_roles()
        elif role == ledger_roles.FINANCE and not Group.objects.filter(
                name=role, permissions__content_type__app_label="ledger").exists():
            ledger_roles.sync_roles(Group, Permission)
        elif role == privacy_roles.PRIVACY and not Group.objects.filter(
                name=role, permissions__content_type__app_label="privacy").exists():
            privacy_roles.sync_roles(Group, Permission)
        user.groups.add(Group.objects.get(name=role))
    return user


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def open_claim(api, sale, **overrides) -> Claim:
    body = {key: value for key, value in {**OPEN_BODY, **overrides}.items() if value is not None}
    response = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", body, format="json")
    assert response.status_code == 200, response.content
    return Claim.objects.get(number=response.json()["numero-sinistro"])


def send_document(api, claim: Claim, doc_type: str, content: bytes = PDF) -> None:
    url = api.post(f"/api/v1/sinistros/{claim.number}/enviar-documento",
                   upload_body(file_name=f"{doc_type}.pdf", tipo=doc_type),
                   format="json").json()["url-envio"]
    response = APIClient().generic("PUT", urlparse(url).path, content,
                                   content_type="application/pdf")
    assert response.status_code == 200, response.content


def claim_under_review(api, sale, **overrides) -> Claim:
    """A claim whose two requested documents arrived: documentacao-em-analise."""
    for doc_type, title in [("certidao-de-obito", "Certidão de óbito"),
                            ("cpf-cnpj", "Documento com CPF")]:
        DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type=doc_type,
                                   title=title)
    claim = open_claim(api, sale, **overrides)
    send_document(api, claim, "certidao-de-obito")
    send_document(api, claim, "cpf-cnpj")
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise"
    return claim


def act(client: Client, claim: Claim, action: str, data: dict | None = None, *,
        version: int | None = None):
    """POST an action's form as the browser would (with the version the page showed)."""
    claim.refresh_from_db()
    body = {"version": claim.version if version is None else version, **(data or {})}
    return client.post(f"/admin/claims/claim/{claim.pk}/acoes/{action}/", body)


def acted(client: Client, claim: Claim, action: str, data: dict | None = None) -> Claim:
    """Act and expect the action done: the claim page's success message and the history
    row of ``action`` it wrote.

    The claim page is also where a refused action lands (not offered now, or the claim
    moved on meanwhile), and where a move that became a proposal to a supervisor lands
    with a success message of its own: neither proves the action happened. This fails
    with the refusal's words (the form's errors when the form came back), or with what
    the page said instead."""
    last = _last_history_id(claim)
    response = act(client, claim, action, data)
    said = _answered(response, claim, action)
    assert any(m.level == messages.SUCCESS for m in said), \
        f"{action}: no success message (said: {[str(m) for m in said]})"
    assert claim.history.filter(id__gt=last, action=action).exists(), \
        f"{action} not done: {' / '.join(str(m) for m in said)}"
    claim.refresh_from_db()
    return claim


def proposed(client: Client, claim: Claim, action: str, data: dict | None = None) -> str:
    """Act where the move needs a supervisor: a proposal written, the claim unchanged.
    The page's words about it."""
    last = _last_history_id(claim)
    response = act(client, claim, action, data)
    said = _answered(response, claim, action)
    rows = list(claim.history.filter(id__gt=last).values_list("action", flat=True))
    assert rows == [TimelineEntry.PROPOSAL], f"{action}: wrote {rows}, said {said}"
    return " / ".join(str(m) for m in said)


def refused(client: Client, claim: Claim, action: str, data: dict | None = None, *,
            version: int | None = None) -> str:
    """Act and expect a refusal; its words: the warning or error shown on the claim page,
    or the form's own errors when the form came back. Nothing was written."""
    last = _last_history_id(claim)
    response = act(client, claim, action, data, version=version)
    if response.status_code == 302:
        said = said_by(response)
        assert not any(m.level == messages.SUCCESS for m in said), \
            f"{action} was done: {[str(m) for m in said]}"
        words = " / ".join(str(m) for m in said if m.level >= messages.WARNING)
    else:
        assert response.status_code == 200, response.status_code
        words = response.context["form"].errors.as_text()
    assert words, f"{action}: neither done nor refused"
    assert not claim.history.filter(id__gt=last).exists(), words
    return words


def _answered(response, claim: Claim, action: str) -> list[Message]:
    """What the claim page says after ``action`` was taken; fails with the refusal's
    words when it was not."""
    assert response.status_code == 302, f"{action} refused: {_errors_of(response)}"
    assert response.url == f"/admin/claims/claim/{claim.pk}/change/", response.url
    said = said_by(response)
    refusals = [str(m) for m in said if m.level >= messages.WARNING]
    assert not refusals, f"{action} refused: {' / '.join(refusals)}"
    return said


def _last_history_id(claim: Claim) -> int:
    return claim.history.order_by("-id").values_list("id", flat=True).first() or 0


def said_by(response) -> list[Message]:
    """The messages this request queued for the next page (not those an earlier
    request left unread in the same storage). Django keeps them on the request's storage
    after the response; reading them there spares a render of the claim page."""
    return list(getattr(response.wsgi_request._messages, "_queued_messages", []))


def page_messages(client: Client, response) -> str:
    page = client.get(response.url) if response.status_code == 302 else response
    return page.content.decode()


def _errors_of(response) -> str:
    context = getattr(response, "context", None)
    if context and "form" in context:
        return context["form"].errors.as_text()
    return response.content.decode()[:2000]


def events_of(claim: Claim) -> list[Event]:
    """The claim's outbox events in the order they were written."""
    return [row.event for row in
            ClaimHistory.objects.filter(claim=claim, event__isnull=False)
            .select_related("event").order_by("id")]


def last_event(claim: Claim) -> Event:
    return events_of(claim)[-1]


class _FormValues(HTMLParser):
    def __init__(self):
        super().__init__()
        self.values: dict[str, str] = {}
        self._select = self._textarea = None
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and attrs.get("type") not in ("hidden", "submit", "checkbox", "radio"):
            self.values[attrs.get("name", "")] = attrs.get("value") or ""
        elif tag == "select":
            self._select, self._options = attrs.get("name", ""), []
        elif tag == "option" and self._select is not None:
            self._options.append((attrs.get("value", ""), "selected" in attrs))
        elif tag == "textarea":
            self._textarea = attrs.get("name", "")
            self.values[self._textarea] = ""

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None:
            # Nothing selected: the browser shows the first option.
            chosen = [value for value, selected in self._options if selected] or \
                [value for value, _ in self._options[:1]]
            self.values[self._select] = chosen[0] if chosen else ""
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea is not None:
            self.values[self._textarea] += data.strip()


def form_values(response) -> dict[str, str]:
    """What a person sees filled in on a page's form: visible field name -> value (the
    selected option's value for a select; "" when empty)."""
    parser = _FormValues()
    parser.feed(response.content.decode())
    return parser.values
