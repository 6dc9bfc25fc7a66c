"""The rules in the demo (``seed_demo``): the
default sets installed, unemployment on credit life **on** and natural deaths in
**shadow**, and a few claims with real documents (a termination, a death certificate,
rendered as the readers expect them) that the rules decide as ``make run`` starts: some
approved and paid with no person, one routed (the termination is someone else's), one
whose waiting period makes the rules propose a denial, one waiting for the creditor's
payment data; the deaths decided on paper for people to compare. Made once."""

import datetime as dt
import io
import random
import uuid
from decimal import Decimal

from django.utils import timezone

from claims import services
from claims.documents import storage
from claims.documents.readings import specimens
from claims.models import Claim, Sale
from claims.serializers.payment_details import PaymentDetailsSerializer
from claims.services.readings import read_document
from claims.validators import cpf_for
from decisions.defaults import default_rule_sets
from decisions.management.commands.load_default_rules import install
from decisions.models import Evaluation, RuleSet
from decisions.services.evaluate import evaluate_claim
from localdev.demo.workload import after_step

UNEMPLOYMENT, DEATH = "perda-de-renda-desemprego", "morte-natural"
SALE_PREFIX = "5e1d0000-0000-4000-8000-0077"
# The product of the rules' demo sales: how a test (or a person) tells them apart.
PRODUCT_COMBO = uuid.UUID("7a0d2f14-5b3c-4e6f-8a9b-77777777aa01")
CREDITOR = {
    "beneficiario": {"tipo": "credor", "nome": "Banco Demonstração S.A.",
                     "cpf-ou-cnpj": "11222333000181"},
    "dados-pagamento": {"metodo-pagamento": "ted", "ted": {
        "banco": "001", "agencia": "1234", "conta": "567890", "conta-digito": "1"}},
}


def _heir(cpf: str) -> dict:
    return {"beneficiario": {"tipo": "outro", "nome": "Helena Duarte", "cpf-ou-cnpj": cpf,
                             "parentesco": "conjuge", "participacao": 100},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "helena@example.com"}}}
# (name, nature, what makes it what it is): the claims the demo's page shows first.
SCENARIOS = [
    ("Carla Menezes", UNEMPLOYMENT, "simples"),
    ("Rafael Teixeira", UNEMPLOYMENT, "simples"),
    ("Juliana Prado", UNEMPLOYMENT, "simples"),
    ("Marcos Vieira", UNEMPLOYMENT, "rescisao-de-outra-pessoa"),
    ("Patrícia Lopes", UNEMPLOYMENT, "carencia"),
    ("Eduardo Ramos", UNEMPLOYMENT, "sem-dados-do-credor"),
    ("Antônio Duarte", DEATH, "simples"),
    ("Lúcia Barros", DEATH, "matricula-invalida"),
]


FIRST_NAMES = ["Ana", "Bruno", "Camila", "Diego", "Elisa", "Fábio", "Gabriela", "Hugo",
               "Isabela", "João", "Larissa", "Mateus", "Natália", "Otávio", "Renata", "Tiago"]
SURNAMES = ["Almeida", "Barbosa", "Cardoso", "Dias", "Esteves", "Ferraz", "Gomes", "Macedo",
            "Nunes", "Pereira", "Queiroz", "Rocha", "Siqueira", "Tavares"]
EXTRA_KINDS = ["simples", "rescisao-de-outra-pessoa", "carencia", "sem-dados-do-credor"]
EXTRA_WEIGHTS = [70, 10, 10, 10]


def seed(*, channel, claims: int = 0) -> str:
    """The demo's rules and their claims (``seed_demo``'s transaction): the scenarios
    above, and ``claims // 2`` more unemployment claims, most of them simple, so the demo
    book shows the share the rules decide alone."""
    for data in default_rule_sets():
        install(data, mode=RuleSet.Mode.ON if data["natureza"] == UNEMPLOYMENT
                else RuleSet.Mode.SHADOW)
    installed = "  regras: desemprego no prestamista ligado, morte natural em sombra"
    if not storage.current().receives_files or Claim.objects.filter(sale_id=_sale_id(0)).exists():
        return installed  # S3 keeps the bytes away from here; or the demo's claims exist
    rng = random.Random(77)
    plan = list(SCENARIOS) + [
        (f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}", UNEMPLOYMENT,
         rng.choices(EXTRA_KINDS, weights=EXTRA_WEIGHTS)[0]) for _ in range(claims // 2)]
    now = timezone.now()
    effects = []
    for index, (name, nature, scenario) in enumerate(plan):
        # Each step at its moment of the past, as the workload's (other apps' demos, the
        # SRO's, act on each step as their beat would have then).
        opened = now - dt.timedelta(days=10 + index % 20, hours=rng.randint(0, 8))
        claim = _claim(channel, index, name, nature, scenario, opened)
        after_step(opened)
        sent = opened + dt.timedelta(minutes=20)
        _send_documents(channel, claim, name, _cpf(index), scenario, nature == DEATH, sent)
        after_step(sent)
        decided = opened + dt.timedelta(minutes=21)
        effects.append(evaluate_claim(claim_id=claim.pk, trigger="documentos-completos",
                                      now=decided))
        after_step(decided)
    paid = sum(1 for e in effects if e is not None and e.effect == Evaluation.Effect.APPLIED)
    return f"{installed}; {len(plan)} sinistros com documentos reais, {paid} pagos sem pessoa"


def _sale_id(index: int) -> uuid.UUID:
    return uuid.UUID(f"{SALE_PREFIX}{index:08d}")


def _cpf(index: int) -> str:
    return cpf_for(770000 + index)


def _claim(channel, index: int, name: str, nature: str, scenario: str, now) -> Claim:
    """The sale and the claim, opened by the channel with the balance and the creditor
    (or the heir), two days after the occurrence."""
    cpf = _cpf(index)
    occurred = now - dt.timedelta(days=2)
    starts = (occurred - dt.timedelta(days=30)).date() if scenario == "carencia" \
        else dt.date(2023, 1, 1)
    services.upsert_sales(channel=channel, rows=[{
        "id": _sale_id(index), "proposal_id": uuid.uuid4(), "product_combo_id": PRODUCT_COMBO,
        "affiliation_id": None, "status": Sale.Status.ACTIVE, "insured_name": name,
        "insured_cpf": cpf, "insured_email": "segurado@example.com",
        "insured_phone_area_code": "11", "insured_phone_number": "912345678",
        "valid_from": starts, "valid_until": dt.date(2029, 12, 31),
        "max_guarantee": Decimal("80000.00"),
        "coverages": [{"name": "cobertura/perda-de-renda", "max_indemnity": Decimal("12000.00")},
                      {"name": "cobertura/morte", "max_indemnity": Decimal("40000.00")}],
    }])
    on_death = nature == DEATH
    spouse_cpf = cpf_for(880000 + index)
    details = None if scenario == "sem-dados-do-credor" else _validated(
        _heir(spouse_cpf) if on_death else CREDITOR)
    return services.open_claim(
        channel=channel, sale_id=_sale_id(index), actor=f"canal:{channel.slug}",
        coverage_name="cobertura/morte" if on_death else "cobertura/perda-de-renda",
        nature=nature, occurred_at=occurred,
        requester_name="Helena Duarte" if on_death else name,
        requester_relationship="conjuge" if on_death else "",
        requester_tax_id=spouse_cpf if on_death else "",
        contact_name="Helena Duarte" if on_death else name, contact_email="contato@example.com",
        outstanding_balance=None if on_death else Decimal("4380.00"), payment_details=details,
        at=now)


def _send_documents(channel, claim, name, cpf, scenario, on_death, now) -> None:
    """Every requested document, as the channel would send it, read at once."""
    documents = _documents(name, cpf, timezone.localdate(claim.occurred_at), scenario, on_death)
    for doc_type in sorted({r.doc_type for r in claim.document_requests.all()}):
        content = documents.get(doc_type) or specimens.text_pdf(
            specimens.identity_lines(name=name, cpf=cpf))
        document, _ = services.request_document_upload(
            channel=channel, number=claim.number, file_name=f"{doc_type}.pdf", sent_at=now,
            doc_type=doc_type, at=now)
        services.store_local_upload(file_id=document.pk, content=io.BytesIO(content), at=now)
        # Here, not in a worker: the demo is made at once.
        read_document(file_id=document.pk, at=now)


def _documents(name, cpf, day, scenario, on_death) -> dict:
    if on_death:
        matricula = specimens.matricula_for(int(cpf[:6]) % 10**7,
                                            valid=scenario != "matricula-invalida")
        return {"certidao-de-obito": specimens.text_pdf(specimens.death_certificate_lines(
            name=name, cpf=cpf, died=day, matricula_text=matricula))}
    holder_cpf = cpf_for(990000) if scenario == "rescisao-de-outra-pessoa" else cpf
    return {"termo-de-rescisao": specimens.text_pdf(specimens.termination_lines(
        name=name, cpf=holder_cpf, admitted=dt.date(2019, 3, 1), left=day))}


def _validated(details: dict) -> dict:
    serializer = PaymentDetailsSerializer(data=details)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
