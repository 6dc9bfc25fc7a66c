"""What ``seed_demo`` adds for privacy (``seed_demo``): the
privacy team's two users (a hold's release takes two people), three claims of 2020 whose
retention clock ran out in 2025 (denied then, their sales long ended), one of them kept
by a legal hold, so "Prazos de guarda" and the next retention run have something true to
show; and a person's access request waiting for its answer. Made once. Passwords are
public, like the other demo users': seed_demo refuses production without
--allow-production."""

import datetime as dt
import random
import uuid
from decimal import Decimal

from django.contrib.auth.models import Group, Permission, User
from django.utils import timezone

from claims import services
from claims.models import Channel, Claim
from claims.services.sales import upsert_sales
from claims.validators import cpf_for
from privacy import roles
from privacy.models import DataRequest
from privacy.requests.services import register_request
from privacy.services.holds import place_hold
from localdev.demo.workload import after_step

PRIVACY_USERS = {
    "privacidade": ("privacidade-demo", "Paula"),
    "juridico": ("juridico-demo", "Renato"),
}
PRODUCT_COMBO = uuid.UUID("7a0d2f14-5b3c-4e6f-8a9b-46464646aa01")
SALE_PREFIX = "5e1d0000-0000-4000-8000-0046"
OLD_CLAIMS = [  # (insured, requester), each denied in 2020
    ("Otília Bastos", "Sérgio Bastos"),
    ("Valdir Moreira", "Irene Moreira"),
    ("Cecília Amaral", "Tomás Amaral"),
]
HOLD_REFERENCE = "1004321-88.2025.8.26.0100"


def seed(*, retail_channel: Channel) -> str:
    privacy_users()
    if Claim.objects.filter(sale__product_combo_id=PRODUCT_COMBO).exists():
        return ""
    supervisor = User.objects.get(username="supervisor")
    # The retailer's channel: the demo channel's newest sales stay the free ones the
    # README's first opening uses.
    channel = retail_channel
    rows = [_sale(index, insured) for index, (insured, _) in enumerate(OLD_CLAIMS)]
    upsert_sales(channel=channel, rows=rows)
    rng = random.Random(46)
    claims = []
    for row, (_, requester) in zip(rows, OLD_CLAIMS, strict=True):
        opened = dt.datetime(2020, 3, rng.randint(2, 20), 14, tzinfo=dt.UTC)
        claim = services.open_claim(
            channel=channel, sale_id=row["id"], actor=f"canal:{channel.slug}",
            coverage_name="cobertura/morte", nature="morte-natural",
            occurred_at=opened - dt.timedelta(days=rng.randint(3, 15)),
            requester_name=requester, contact_name=requester,
            contact_email="contato@example.com", at=opened)
        after_step(opened)
        denied = opened + dt.timedelta(days=rng.randint(10, 20))
        services.deny(claim_id=claim.pk, user=supervisor,
                      reason="A doença que causou a morte era conhecida antes da "
                             "contratação e não foi declarada.",
                      code=1, clause="Cláusula 7.2 (doenças preexistentes)", at=denied)
        after_step(denied)
        claims.append(claim)
    place_hold(actor="usuario:juridico", claim=claims[0],
               reason="A família contesta a recusa na Justiça: os registros do sinistro "
                      "são prova no processo.", reference=HOLD_REFERENCE)
    request = pending_access_request(claims)
    return (f"  privacidade: {len(claims)} sinistros de 2020 com o prazo de guarda vencido "
            f"(1 com retenção legal); a requisição de acesso nº {request.pk}, aberta "
            f"(prazo {request.due_on:%d/%m/%Y}); usuários privacidade / privacidade-demo "
            f"e juridico / juridico-demo")


def pending_access_request(old_claims: list[Claim]) -> DataRequest:
    """A living insured of the demo asked for their data on the hosted page ten days
    ago: the card shows it open, five days left (LGPD art. 19, II)."""
    living = (Claim.objects.exclude(sale__product_combo_id=PRODUCT_COMBO)
              .exclude(coverage__name="cobertura/morte").select_related("sale")
              .order_by("created_at").first())
    cpf = (living or old_claims[1]).sale.insured_cpf
    return register_request(cpf=cpf, kind="acesso", origin="pagina",
                            registered_by="usuario:privacidade",
                            details="Quero saber quais dados meus vocês guardam.",
                            received_at=timezone.now() - dt.timedelta(days=10))


def _sale(index: int, insured: str) -> dict:
    return {
        "id": uuid.UUID(f"{SALE_PREFIX}{index:08d}"),
        "proposal_id": uuid.UUID(f"{SALE_PREFIX.replace('8000', '9000')}{index:08d}"),
        "product_combo_id": PRODUCT_COMBO, "affiliation_id": None, "status": "ativa",
        "insured_name": insured, "insured_cpf": cpf_for(4600000 + index),
        "insured_email": "segurado@example.com", "insured_phone_area_code": "11",
        "insured_phone_number": "912345678", "valid_from": dt.date(2019, 1, 1),
        "valid_until": dt.date(2020, 6, 30), "max_guarantee": Decimal("80000.00"),
        "coverages": [{"name": "cobertura/morte", "max_indemnity": Decimal("50000.00")}],
    }


def privacy_users() -> list[User]:
    roles.sync_roles(Group, Permission)
    group = Group.objects.get(name=roles.PRIVACY)
    made = []
    for username, (password, first_name) in PRIVACY_USERS.items():
        user, created = User.objects.get_or_create(username=username, defaults={
            "first_name": first_name, "last_name": "(demonstração)", "is_staff": True})
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
        user.groups.add(group)
        made.append(user)
    return made

