"""Demo data for a local run: a channel with known credentials, sales, document
requirements, two analysts and two supervisors in one team that receives every new claim,
and a workload of a few hundred claims across every state on two channels
(localdev.demo.workload). Safe to run again (it converges to the same state; the workload
is made once)."""

import datetime as dt
import random
from decimal import Decimal
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import Group, Permission, User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from claims import roles
from workbench import roles as workbench_roles
from localdev.demo import decisions as decisions_demo
from localdev.demo import ledger as ledger_demo
from localdev.demo import privacy as privacy_demo
from localdev.demo.workload import Workload, sale_rows
from claims.validators import cpf_for
from claims.management.commands.load_default_requirements import default_requirements
from claims.models import Channel, Claim, DocumentRequirement
from workbench.models import AssignmentRule, Team, TeamMember
from claims.services import create_channel, upsert_sales

DEMO_CHANNEL = "demo"
DEMO_CLIENT_ID = "demo-client"
# Known on purpose so the README's and docs/sandbox.md's curl sessions can be pasted. Refused outside DEBUG.
DEMO_CLIENT_SECRET = "demo-secret"
# username -> (password, first name, role)
STAFF = {
    "analista": ("analista-demo", "Ana", roles.ANALYST),
    "analista2": ("analista2-demo", "Bruno", roles.ANALYST),
    "supervisor": ("supervisor-demo", "Sérgio", roles.SUPERVISOR),
    # A second supervisor: a denial's reconsideration is answered by one who did not deny.
    "supervisor2": ("supervisor2-demo", "Rita", roles.SUPERVISOR),
}
# A partner's sandbox channel (docs/sandbox.md), with its own sales, for the
# sandbox session.
SANDBOX_CHANNEL, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET = (
    "sandbox-demo", "sandbox-client", "sandbox-secret")
DEMO_TEAM = "Vida e prestamista"
SECOND_CHANNEL = "varejo-demo"
WORKLOAD_CLAIMS = 300

SALE_MARIA = UUID("3f6c1a52-8d1e-4b7a-9c55-0a1b2c3d4e01")
SALE_JOAO = UUID("3f6c1a52-8d1e-4b7a-9c55-0a1b2c3d4e02")
SALE_ANA_CANCELLED = UUID("3f6c1a52-8d1e-4b7a-9c55-0a1b2c3d4e03")
PRODUCT_COMBO = UUID("7a0d2f14-5b3c-4e6f-8a9b-1c2d3e4f5a60")
# Sales no claim is ever opened on by the demo (ids 5e1d0000-...-9000000000NN).
FREE_SALES, FREE_SALES_PREFIX = 5, 9


def _sale(sale_id, proposal, name, cpf, email, status="ativa", lmg="60000.00", coverages=None):
    return {
        "id": sale_id,
        "proposal_id": UUID(proposal),
        "product_combo_id": PRODUCT_COMBO,
        "affiliation_id": None,
        "status": status,
        "insured_name": name,
        "insured_cpf": cpf,
        "insured_email": email,
        "insured_phone_area_code": "11",
        "insured_phone_number": "912345678",
        "valid_from": dt.date(2026, 1, 1),
        "valid_until": dt.date(2027, 12, 31),
        "max_guarantee": Decimal(lmg),
        "coverages": coverages
        or [
            {"name": "cobertura/morte", "max_indemnity": Decimal("50000.00")},
            {"name": "cobertura/perda-de-renda", "max_indemnity": Decimal("12000.00")},
            {"name": "cobertura/invalidez-permanente", "max_indemnity": Decimal("30000.00")},
        ],
    }


DEMO_SALES = [
    _sale(SALE_MARIA, "0b7e6a10-2c4d-4e8f-9a1b-3c5d7e9f1a01", "Maria da Silva", "52998224725",
          "maria@example.com"),
    _sale(SALE_JOAO, "0b7e6a10-2c4d-4e8f-9a1b-3c5d7e9f1a02", "João Souza", "11144477735",
          "joao@example.com"),
    _sale(SALE_ANA_CANCELLED, "0b7e6a10-2c4d-4e8f-9a1b-3c5d7e9f1a03", "Ana Lima",
          "39053344705", "ana@example.com", status="cancelada"),
]

class Command(BaseCommand):
    help = "Carrega dados de demonstração (canal, vendas, documentos exigidos, analista)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-production", action="store_true",
            help="Permite rodar com DEBUG desligado (as credenciais de demonstração são públicas).",
        )
        parser.add_argument(
            "--sinistros", type=int, default=WORKLOAD_CLAIMS,
            help=f"Quantos sinistros de demonstração criar na primeira vez (padrão "
                 f"{WORKLOAD_CLAIMS}; 0: nenhum).",
        )

    @transaction.atomic
    def handle(self, *args, allow_production=False, sinistros=WORKLOAD_CLAIMS, **options):
        if not settings.DEBUG and not allow_production:
            raise CommandError(
                "seed_demo cria credenciais conhecidas; rode com DJANGO_DEBUG=true "
                "ou --allow-production."
            )
        channel = self._channel()
        upsert_sales(channel=channel, rows=DEMO_SALES)
        for row in default_requirements():  # the ones every deployment starts with
            DocumentRequirement.objects.update_or_create(
                coverage_name=row["coverage"], nature=row["nature"], product_combo_id=None,
                doc_type=row["doc_type"], defaults={"title": row["title"], "is_active": True},
            )
        self._sandbox()
        self._staff()
        self._team()
        made = self._workload(channel, sinistros)
        # Sales with every coverage free, the newest of the channel's list, so the first
        # opening a newcomer tries from GET /api/v1/vendas succeeds (the workload's sales
        # have open claims on their coverages and answer 422).
        free = sale_rows(FREE_SALES_PREFIX, FREE_SALES, random.Random(FREE_SALES_PREFIX),
                         PRODUCT_COMBO, cpf_for)
        upsert_sales(channel=channel, rows=free)
        # Each app's part, once the claims are in (each converges: nothing made twice).
        self.stdout.write(decisions_demo.seed(channel=channel, claims=made))
        ledger_demo.seed()  # the finance user closes the demo's past months
        said = privacy_demo.seed(retail_channel=Channel.objects.get(slug=SECOND_CHANNEL))
        if said:
            self.stdout.write(said)
        self.stdout.write(
            "Dados de demonstração prontos.\n"
            f"  canal: {DEMO_CHANNEL}\n"
            f"  client_id: {DEMO_CLIENT_ID}\n"
            f"  client_secret: {DEMO_CLIENT_SECRET}\n"
            f"  venda (ativa): {SALE_MARIA}\n"
            f"  vendas sem sinistros (as primeiras de GET /api/v1/vendas): {FREE_SALES}\n"
            f"  equipe: {DEMO_TEAM} ({made} sinistros de demonstração criados agora)"
            + "".join(f"\n  {role.lower()}: {username} / {password} em /admin/"
                      for username, (password, _, role) in STAFF.items())
            + f"\n  sandbox: canal {SANDBOX_CHANNEL}, {SANDBOX_CLIENT_ID} / {SANDBOX_CLIENT_SECRET}"
        )

    def _sandbox(self) -> None:
        channel = Channel.objects.select_related("application").filter(
            slug=SANDBOX_CHANNEL).first()
        if channel is None:
            create_channel(name="Parceiro em testes (sandbox)", slug=SANDBOX_CHANNEL,
                           client_id=SANDBOX_CLIENT_ID, client_secret=SANDBOX_CLIENT_SECRET,
                           sandbox=True)
            return
        channel.application.client_id = SANDBOX_CLIENT_ID
        channel.application.client_secret = SANDBOX_CLIENT_SECRET
        channel.application.save()

    def _channel(self) -> Channel:
        channel = Channel.objects.select_related("application").filter(slug=DEMO_CHANNEL).first()
        if channel is None:
            channel, _ = create_channel(
                name="Canal de demonstração", slug=DEMO_CHANNEL,
                client_id=DEMO_CLIENT_ID, client_secret=DEMO_CLIENT_SECRET,
            )
        else:
            # Converge: someone may have rotated the secret or switched the channel off.
            channel.application.client_id = DEMO_CLIENT_ID
            channel.application.client_secret = DEMO_CLIENT_SECRET
            channel.application.save()
            channel.is_active = channel.claims_api_enabled = True
            channel.save(update_fields=["is_active", "claims_api_enabled"])
        return channel

    def _staff(self) -> None:
        roles.sync_roles(Group, Permission)
        workbench_roles.sync_roles(Group, Permission)
        for username, (password, first_name, role) in STAFF.items():
            user, _ = User.objects.get_or_create(username=username)
            user.is_staff = user.is_active = True
            user.is_superuser = False
            user.first_name = first_name
            user.last_name = "(demonstração)"
            user.set_password(password)
            user.save()
            user.groups.set([Group.objects.get(name=role)])

    def _team(self) -> None:
        """One team gets every new claim (the catch-all rule); the analysts share it."""
        team, _ = Team.objects.get_or_create(name=DEMO_TEAM)
        AssignmentRule.objects.get_or_create(channel=None, coverage_name="",
                                             defaults={"team": team})
        for username, (_, _, role) in STAFF.items():
            TeamMember.objects.update_or_create(
                team=team, user=User.objects.get(username=username),
                defaults={"role": TeamMember.Role.SUPERVISOR if role == roles.SUPERVISOR
                          else TeamMember.Role.ANALYST, "receives_claims": True})

    def _workload(self, channel: Channel, count: int) -> int:
        """Claims across every state over the last twelve weeks, once."""
        second = Channel.objects.filter(slug=SECOND_CHANNEL).first() or create_channel(
            name="Varejo Demonstração", slug=SECOND_CHANNEL)[0]
        if count <= 0 or Claim.objects.filter(channel__in=[channel, second]).exclude(
                sale_id__in=[SALE_MARIA, SALE_JOAO, SALE_ANA_CANCELLED]).exists():
            return 0
        rng = random.Random(2026)
        per_sale = 2  # each workload sale has two coverages, one claim on each
        sales_needed = (count + per_sale - 1) // per_sale
        first_share = (sales_needed * 2 + 2) // 3
        plan = []
        for prefix, owner, how_many in ((1, channel, first_share),
                                        (2, second, sales_needed - first_share)):
            rows = sale_rows(prefix, how_many, rng, PRODUCT_COMBO, cpf_for)
            upsert_sales(channel=owner, rows=rows)
            plan += [(owner, row) for row in rows]
        analysts = list(User.objects.filter(username__in=["analista", "analista2"]))
        workload = Workload(analysts=analysts, supervisor=User.objects.get(username="supervisor"),
                            rng=rng, now=timezone.now())
        made = 0
        for owner, row in plan:
            for coverage in ("cobertura/invalidez-permanente", "cobertura/morte"):
                if made < count:
                    workload.claim(owner, row, coverage)
                    made += 1
        workload.tasks(list(Claim.objects.filter(status="em-regulacao").select_related("owner")))
        return made

