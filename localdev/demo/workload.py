"""A claims team's workload for the demo (``seed_demo``): a few hundred claims opened
over the last twelve weeks on two channels and carried through every state by the real
services, so the dashboard, the queues and the timelines have something true to show.

Each step passes its moment in the past to the service (``at=``), and the services date
what they write by it: the regulatory clocks, ages and days to decision are the ones they
computed themselves. Nothing patches the clock.
"""

import datetime as dt
import io
import random
import uuid
from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from claims import services
from claims.services import consequences
from claims.denials import DenialCode
from claims.documents import storage
from claims.models import Claim
from claims.validators import cpf_for
from claims.serializers import PaymentDetailsSerializer
from localdev.demo import payouts as payouts_demo
from localdev.demo import sro as sro_demo
from workbench import services as workbench_services
from workbench.proposal_terms import DenialTerms, PaymentTerms

FIRST_NAMES = ["João", "Maria", "José", "Ana", "Antônio", "Francisca", "Carlos", "Conceição",
               "Paulo", "Adriana", "Lucas", "Juliana", "Márcio", "Fátima", "Luís", "Sebastião",
               "Raimunda", "Pedro", "Patrícia", "Tereza"]
SURNAMES = ["Silva", "Santos", "Oliveira", "Souza", "Lima", "Pereira", "Ferreira", "Conceição",
            "Gonçalves", "Araújo", "Ribeiro", "Carvalho", "Gomes", "Martins", "Rocha", "Assunção"]
# What happens to a claim after its opening, with how often (out of 100).
SCENARIOS = [
    ("opened", 12), ("documents-sent", 8), ("approved", 14), ("payment-data", 8),
    ("paid", 8), ("settled", 5), ("finalized", 20), ("denied", 8), ("denial-proposed", 4),
    ("payment-proposed", 3), ("more-documents", 10),
]
RELATIVES = [("conjuge", 50), ("filho", 25), ("filho", 25)]
# Where the demo's payees live: the SRO's final beneficiary needs a CEP and a UF.
DEMO_ADDRESS = {"cep": "01310100", "uf": "SP"}


def after_step(moment: dt.datetime) -> None:
    """What the workers would have done right after a step of the past: its letters and
    SRO submissions, at its moment; then the SRO sends them as its beat job would have
    (localdev.demo.sro), so the demo's registrations keep or miss their deadlines by the
    claims' own timeline, not by the day the demo was loaded."""
    consequences.run_all_pending(now=moment)
    sro_demo.send_after_step(moment=moment)


def sale_rows(prefix: int, count: int, rng: random.Random, product_combo, cpf_for) -> list[dict]:
    rows = []
    for index in range(count):
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(['da', 'de', 'dos', ''])} " \
               f"{rng.choice(SURNAMES)}".replace("  ", " ")
        rows.append({
            "id": uuid.UUID(f"5e1d0000-0000-4000-8000-{prefix:04d}{index:08d}"),
            "proposal_id": uuid.UUID(f"5e1d0000-0000-4000-9000-{prefix:04d}{index:08d}"),
            "product_combo_id": product_combo, "affiliation_id": None, "status": "ativa",
            "insured_name": name, "insured_cpf": cpf_for(prefix * 100000 + index),
            "insured_email": "segurado@example.com", "insured_phone_area_code": "11",
            "insured_phone_number": "912345678", "valid_from": dt.date(2025, 1, 1),
            "valid_until": dt.date(2028, 12, 31), "max_guarantee": Decimal("150000.00"),
            "coverages": [
                {"name": "cobertura/morte", "max_indemnity": Decimal("60000.00")},
                {"name": "cobertura/invalidez-permanente", "max_indemnity": Decimal("40000.00")},
            ],
        })
    return rows


# What an analyst asks for after the opening's documents (docs/claims.md, "Default
# requirements"): a natural death's cause, a disability the INSS has recognised.
COMPLEMENTARY_DOCUMENTS = {
    "cobertura/morte": ("relatorio-medico-causa-morte",
                        "Relatório do médico assistente sobre a causa da morte",
                        "A certidão não diz desde quando a doença era conhecida."),
    "cobertura/invalidez-permanente": ("carta-concessao-inss",
                                       "Carta de concessão da aposentadoria por invalidez (INSS)",
                                       "Para confirmar o caráter permanente da invalidez."),
}


class Workload:
    def __init__(self, *, analysts, supervisor, rng: random.Random, now: dt.datetime):
        self.analysts, self.supervisor, self.rng, self.now = analysts, supervisor, rng, now
        self.settled_count = 0
        self.scenarios = [name for name, weight in SCENARIOS for _ in range(weight)]

    def claim(self, channel, sale: dict, coverage: str):
        """Open one claim at a random moment of the last twelve weeks and play a
        scenario from there, each step a little later."""
        moment = self.now - dt.timedelta(days=self.rng.uniform(0.2, 84))
        scenario = self.rng.choice(self.scenarios)
        on_death = coverage.endswith("morte")
        # A death is reported by a relative, never by the deceased; a living claim by the
        # insured person.
        first, last = self.rng.choice(FIRST_NAMES), self.rng.choice(SURNAMES)
        requester = f"{first} {last}" if on_death else sale["insured_name"]
        claim = services.open_claim(
            channel=channel, sale_id=sale["id"], actor=f"canal:{channel.slug}",
            coverage_name=coverage, nature="morte-natural" if on_death else "",
            occurred_at=moment - dt.timedelta(days=self.rng.randint(1, 20)),
            requester_name=requester, contact_name=requester,
            contact_email="contato@example.com", at=moment)
        after_step(moment)
        step = self._stepper(moment)
        if scenario == "opened":
            if self.rng.random() < 0.4:  # some wait for someone to take them
                at = next(step)
                workbench_services.reassign_claims(claim_ids=[claim.pk], to_user=None,
                                                   user=self.supervisor, at=at,
                                                   reason="Redistribuir: analista em férias.")
                after_step(at)
            return
        if claim.status == "pendente-de-documentacao":
            if scenario == "more-documents":
                return
            self._send_documents(channel, claim, next(step))
        if scenario == "documents-sent":
            return
        self._play(scenario, channel, claim, sale, step)

    def _stepper(self, moment):
        while True:
            moment = min(moment + dt.timedelta(days=self.rng.uniform(0.5, 9)),
                         self.now - dt.timedelta(minutes=5))
            yield moment

    def _owner(self, claim):
        return Claim.objects.get(pk=claim.pk).owner or self.rng.choice(self.analysts)

    def _send_documents(self, channel, claim, moment):
        """The channel sends every requested document (local storage only: with S3 the
        bytes would have to travel to the bucket, so the claim keeps waiting)."""
        if not storage.current().receives_files:
            return
        for doc_type in sorted({r.doc_type for r in claim.document_requests.all()}):
            document, _ = services.request_document_upload(
                channel=channel, number=claim.number, file_name=f"{doc_type}.pdf",
                sent_at=moment, doc_type=doc_type, at=moment)
            services.store_local_upload(file_id=document.pk, content=io.BytesIO(PDF), at=moment)
        after_step(moment)

    def _play(self, scenario, channel, claim, sale, step):
        analyst = self._owner(claim)
        version = lambda: Claim.objects.get(pk=claim.pk).version  # noqa: E731
        if scenario == "more-documents":
            at = next(step)
            doc_type, title, note = COMPLEMENTARY_DOCUMENTS[claim.coverage.name]
            services.request_documents(
                claim_id=claim.pk, user=analyst, expected_version=version(),
                documents=[services.RequestedDocument(doc_type, title)], note=note, at=at)
            after_step(at)
            return
        if scenario == "denied":
            at = next(step)
            services.deny(claim_id=claim.pk, user=self.supervisor,
                          code=DenialCode.OUTSIDE_VALIDITY,
                          clause="Cláusula 3.1 das Condições Gerais (vigência)",
                          reason="O evento ocorreu antes do início da vigência do seguro.", at=at)
            after_step(at)
            return
        if scenario == "denial-proposed":
            at = next(step)
            workbench_services.propose(
                claim_id=claim.pk, user=analyst, expected_version=version(), at=at,
                terms=DenialTerms(reason="Doença preexistente não declarada na contratação.",
                                  code=int(DenialCode.EXCLUDED_RISK),
                                  clause="Cláusula 5.2 das Condições Gerais",
                                  internal_note="Prontuário de 2019 confirma."))
            after_step(at)
            return
        at = next(step)
        services.approve_documents(claim_id=claim.pk, user=analyst,
                                   request_payment_data=scenario == "payment-data", at=at)
        after_step(at)
        if scenario in ("approved", "payment-data"):
            if self.rng.random() < 0.3:
                at = next(step)
                services.add_note(claim_id=claim.pk, user=analyst,
                                  text="Liguei para o contato: aguarda retorno do banco.", at=at)
                after_step(at)
            return
        at = next(step)
        self._name_payees(channel, claim, sale, at=at)
        after_step(at)
        shares = services.entitlements_of(Claim.objects.get(pk=claim.pk))
        within_authority = sum(share.left for share in shares) <= settings.PAYMENT_AUTHORITY_LIMIT
        if scenario == "payment-proposed" and within_authority:
            scenario = "paid"  # nothing to propose: the analyst pays it herself
        payer = self.supervisor if scenario != "payment-proposed" and not within_authority \
            else analyst
        payments, paid = [], Decimal("0.00")
        for share in shares:
            if scenario == "payment-proposed" and \
                    paid + share.left > settings.PAYMENT_AUTHORITY_LIMIT:
                # This one takes the claim's payments above the analyst's authority.
                at = next(step)
                workbench_services.propose(
                    claim_id=claim.pk, user=analyst, expected_version=version(), at=at,
                    terms=PaymentTerms(amount=share.left,
                                       beneficiary=str(share.beneficiary.pk),
                                       payee=services.payee_of(share.beneficiary),
                                       payment_method=share.beneficiary.payment_method))
                after_step(at)
                return
            at = next(step)
            payments.append(services.register_payment(
                claim_id=claim.pk, beneficiary_id=share.beneficiary.pk, user=payer,
                amount=share.left, at=at))
            after_step(at)
            paid += share.left
        if scenario == "paid":
            return
        # Some of the settled ones (never a claim that is then finalized) come back
        # refused by the bank, and wait for new payment data.
        # Every third one, counted apart, so the scenarios drawn for the others stay put.
        if scenario == "settled":
            self.settled_count += 1
        refuse = scenario == "settled" and self.settled_count % 3 == 1
        # The bank pays them (or refuses them) at that moment (localdev.demo.payouts).
        paid_at = next(step)
        payouts_demo.pay(payments=payments, moment=paid_at, refuse=refuse)
        after_step(paid_at)
        if scenario == "finalized":
            at = next(step)
            services.finalize(claim_id=claim.pk, user=analyst, at=at)
            after_step(at)

    def _name_payees(self, channel, claim, sale: dict, *, at: dt.datetime) -> None:
        """The channel names who is paid: on a death, the spouse (50%) and two children
        (25% each), each with a PIX key; on a living claim, the insured person's key."""
        if claim.coverage.name.endswith("morte"):
            # Their own generator, so the scenarios drawn for the other claims stay put.
            rng = random.Random(sale["id"].int)
            surname = sale["insured_name"].split()[-1]
            people = [(f"{rng.choice(FIRST_NAMES)} {surname}", relationship, share)
                      for relationship, share in RELATIVES]
            seeds = [rng.randint(10**8, 10**9 - 1) for _ in people]
            bodies = [{"beneficiario": {"tipo": "outro", "nome": name, "cpf-ou-cnpj": cpf_for(seed),
                                        "parentesco": relationship, "participacao": share,
                                        "endereco": DEMO_ADDRESS},
                       "dados-pagamento": {"metodo-pagamento": "pix", "pix": {
                           "chave": f"herdeiro.{seed}@example.com"}}}
                      for (name, relationship, share), seed in zip(people, seeds, strict=True)]
        else:
            bodies = [{"beneficiario": {"tipo": "segurado", "nome": sale["insured_name"],
                                        "cpf-ou-cnpj": sale["insured_cpf"],
                                        "endereco": DEMO_ADDRESS},
                       "dados-pagamento": {"metodo-pagamento": "pix",
                                           "pix": {"chave": "segurado@example.com"}}}]
        for body in bodies:
            serializer = PaymentDetailsSerializer(data=body)
            serializer.is_valid(raise_exception=True)
            services.supply_payment_details(channel=channel, number=claim.number,
                                            payment_details=serializer.validated_data,
                                            actor=f"canal:{channel.slug}", at=at)

    def tasks(self, claims):
        """A few tasks by hand (some made days ago, now overdue), then the periodic job
        (automatic tasks, escalations)."""
        for claim in claims[:12]:
            owner = claim.owner or self.rng.choice(self.analysts)
            made = self.now - dt.timedelta(days=self.rng.randint(0, 8))
            workbench_services.create_todo(
                claim_id=claim.pk, user=owner, owner=owner, at=made,
                subject="Confirmar dados bancários com o canal",
                due_on=timezone.localdate(made) + dt.timedelta(days=self.rng.randint(0, 5)))
            after_step(made)
        workbench_services.workbench_sweep(now=self.now)


def _pdf() -> bytes:
    """A small, whole PDF (one empty page): what the upload checks accept."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>"]
    out, offsets = bytearray(b"%PDF-1.7\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 4\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


PDF = _pdf()
