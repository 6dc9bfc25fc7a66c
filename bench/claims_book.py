"""The large book the workbench benchmark reads (bench/admin_claims_list.py): channels,
sales (one per claim, three coverages each), claims in every status over two years, three
history rows and two outbox events per claim, loaded with ``COPY``; and the workbench's
people, one team of twenty analysts and two supervisors. Import it once Django is set up.
"""

import datetime as dt
import io
import json
import random
import uuid

from django.db import connection

CHANNELS = 6
COVERAGES = ("cobertura/morte", "cobertura/perda-de-renda", "cobertura/invalidez-permanente")
FIRST = ("Maria", "José", "Ana", "João", "Francisca", "Antônio", "Adriana", "Carlos",
         "Juliana", "Paulo", "Márcia", "Pedro", "Aline", "Lucas", "Sandra", "Marcos")
LAST = ("Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira",
        "Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes")
# Most claims of a two-year-old book are closed.
STATUSES = (["finalizado"] * 45 + ["recusado"] * 10 + ["abertura-rejeitada"] * 2
            + ["em-regulacao"] * 15 + ["pendente-de-documentacao"] * 12
            + ["documentacao-em-analise"] * 8 + ["pendente-de-dados-de-pagamento"] * 4
            + ["criado"] * 4)
CLAIM_TABLES = ("claims_claimhistory", "claims_event", "claims_payment", "claims_documentfile",
                "claims_documentrequest", "workbench_todo", "workbench_proposal", "claims_claim",
                "claims_coverage", "claims_sale", "workbench_teammember", "workbench_assignmentrule",
                "workbench_team")
ANALYSTS, SUPERVISORS = 20, 2
OPEN = {"criado", "em-regulacao", "pendente-de-documentacao", "documentacao-em-analise",
        "pendente-de-dados-de-pagamento"}
# What a claim in each status awaits (claims.awaiting decides it in the service; the
# loader only needs a realistic spread).
AWAITING = {"criado": ("analise",), "documentacao-em-analise": ("analise",),
            "pendente-de-documentacao": ("documentos",),
            "pendente-de-dados-de-pagamento": ("dados-pagamento",),
            "em-regulacao": ("analise", "liquidacao", "nada")}
DECIDED = {"finalizado", "recusado", "em-regulacao", "pendente-de-dados-de-pagamento"}


def count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 (a constant)
        return cursor.fetchone()[0]


# --- loading -------------------------------------------------------------------------


def copy_rows(cursor, table: str, columns: tuple[str, ...], rows) -> None:
    """COPY rows (tuples of Python values) in text format."""
    buffer = io.StringIO()
    for row in rows:
        buffer.write("\t".join(_copy_text(value) for value in row) + "\n")
    buffer.seek(0)
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        while chunk := buffer.read(1 << 20):
            copy.write(chunk)


def _copy_text(value) -> str:
    if value is None:
        return r"\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, dict | list):
        value = json.dumps(value)
    return str(value).replace("\\", "\\\\").replace("\t", " ").replace("\n", " ")


def load(total: int, days: int = 730) -> None:
    """``total`` claims created over the last ``days`` days."""
    from claims.folding import fold
    from claims.models import Channel
    from claims.search_text import search_text
    from tests.support.factories import make_channel, make_cpf

    rng = random.Random(42)
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(CLAIM_TABLES)} CASCADE")
    team, analysts, supervisors = workbench_people()
    channels = list(Channel.objects.order_by("slug")[:CHANNELS])
    while len(channels) < CHANNELS:
        channels.append(make_channel(f"Canal de carga {len(channels) + 1}"))
    now = dt.datetime.now(dt.timezone.utc)
    start = now - dt.timedelta(days=days)
    sales, coverages, claims, history, events, tasks, proposals = [], [], [], [], [], [], []
    coverage_id = 0
    history_id = 0
    for n in range(total):
        sale_id = uuid.uuid4()
        created = start + dt.timedelta(seconds=rng.uniform(0, days * 86400))
        channel = channels[n % CHANNELS]
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}"
        cpf = make_cpf(10_000_000 + n)
        sales.append((sale_id, channel.pk, uuid.uuid4(), uuid.uuid4(), None, "ativa", name,
                      cpf, "", "", "", dt.date(2024, 1, 1),
                      dt.date(2030, 12, 31), "100000.00", created, created, fold(name)))
        first_coverage = coverage_id + 1
        for name_ in COVERAGES:
            coverage_id += 1
            coverages.append((coverage_id, sale_id, name_, "50000.00", True))
        claim_id = uuid.uuid4()
        status = rng.choice(STATUSES)
        notified = created + dt.timedelta(days=rng.uniform(1, 60))
        clock = notified + dt.timedelta(days=30) if status in ("criado", "em-regulacao") else None
        paused = status == "pendente-de-documentacao" and rng.random() < 0.2
        is_open = status in OPEN
        owner = analysts[n % ANALYSTS] if not (is_open and rng.random() < 0.05) else None
        awaiting = rng.choice(AWAITING[status]) if is_open else "encerrado"
        if is_open and owner and rng.random() < 0.005:
            awaiting = "aprovacao"
            proposals.append((uuid.uuid4(), claim_id, "recusar",
                              {"reason": "Carga", "code": 1, "clause": "Cláusula 1"},
                              "recusar o sinistro. Motivo: Carga", 3, "pendente", owner.pk,
                              now, None, None, ""))
        decided = (notified + dt.timedelta(days=rng.uniform(1, 40))
                   if status in DECIDED else None)
        if decided and decided > now:
            decided = None
        if is_open and owner and rng.random() < 0.1:
            tasks.append((claim_id, "manual", "Conferir documentos",
                          (now + dt.timedelta(days=rng.randint(-10, 10))).date(), owner.pk, "",
                          "aberta", owner.pk, now, None, None, None))
        claims.append((
            claim_id, f"SIN-{n:012d}", sale_id, channel.pk, first_coverage, status, "morte-natural",
            "50000.00", None, notified - dt.timedelta(days=3), notified, "Solicitante",
            "Contato", "contato@example.com", "", "", "", [], {},
            None, "", 3, "decisao" if clock else "", clock, paused, notified, notified,
            owner.pk if owner else None, team.pk, awaiting, decided,
            (decided - notified).days if decided else None,
            search_text(number=f"SIN-{n:012d}", sale_id=sale_id, insured_name=name,
                        insured_cpf=cpf, requester_name="Solicitante", contact_name="Contato"),
            False, "", ""))
        for step in range(3):
            history_id += 1
            event_id = uuid.uuid4()
            at = notified + dt.timedelta(hours=step)
            if step < 2:
                events.append((event_id, channel.pk, claim_id, "sinistro-criado",
                               {"numero-sinistro": f"SIN-{n:012d}"}, at, at))
            history.append((history_id, claim_id, "abrir", "", status, "canal:carga", None,
                            "", event_id if step < 2 else None, at))
    with connection.cursor() as cursor:
        copy_rows(cursor, "claims_sale", (
            "id", "channel_id", "proposal_id", "product_combo_id", "affiliation_id", "status",
            "insured_name", "insured_cpf", "insured_email", "insured_phone_area_code",
            "insured_phone_number", "valid_from", "valid_until", "max_guarantee",
            "created_at", "updated_at", "search_name"), sales)
        copy_rows(cursor, "claims_coverage",
                  ("id", "sale_id", "name", "max_indemnity", "is_active"), coverages)
        copy_rows(cursor, "claims_claim", (
            "id", "number", "sale_id", "channel_id", "coverage_id", "status", "nature", "amount",
            "outstanding_balance", "occurred_at", "notified_at", "requester_name",
            "contact_name", "contact_email", "contact_phone_area_code", "contact_phone_number",
            "narrative", "alerts", "additional_data", "denied_at", "denial_reason",
            "version", "clock_kind", "clock_deadline", "clock_paused", "created_at",
            "updated_at", "owner_id", "team_id", "awaiting", "decided_at", "days_to_decision",
            "search_text", "has_alerts", "denial_clause", "denial_late_justification"), claims)
        copy_rows(cursor, "workbench_todo", (
            "claim_id", "kind", "subject", "due_on", "owner_id", "note", "status",
            "created_by_id", "created_at", "closed_by_id", "closed_at", "escalated_at"), tasks)
        copy_rows(cursor, "workbench_proposal", (
            "id", "claim_id", "kind", "arguments", "summary", "claim_version", "status",
            "proposed_by_id", "proposed_at", "decided_by_id", "decided_at", "decision_note"),
            proposals)
        copy_rows(cursor, "claims_event", (
            "id", "channel_id", "claim_id", "name", "details", "created_at", "relayed_at"),
            events)
        copy_rows(cursor, "claims_claimhistory", (
            "id", "claim_id", "action", "from_status", "to_status", "actor", "user_id",
            "note", "event_id", "created_at"), history)
        for table in ("claims_coverage", "claims_claimhistory"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT max(id) FROM {table}))")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def workbench_people():
    """The team every claim belongs to: twenty analysts and two supervisors."""
    from django.contrib.auth.models import User

    from claims import roles
    from workbench.models import AssignmentRule, Team, TeamMember
    from tests.support.lifecycle import staff

    User.objects.filter(username__startswith="bench-").delete()
    team = Team.objects.create(name="Equipe de carga")
    AssignmentRule.objects.create(team=team)
    analysts = [staff(f"bench-analista-{i:02d}", roles.ANALYST) for i in range(1, ANALYSTS + 1)]
    supervisors = [staff(f"bench-supervisor-{i}", roles.SUPERVISOR)
                   for i in range(1, SUPERVISORS + 1)]
    for user in analysts:
        TeamMember.objects.create(team=team, user=user, role=TeamMember.Role.ANALYST)
    for user in supervisors:
        TeamMember.objects.create(team=team, user=user, role=TeamMember.Role.SUPERVISOR)
    return team, analysts, supervisors
