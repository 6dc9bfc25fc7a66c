"""Claims, their history and outbox events (payments: claims.models.payments)."""

import datetime as dt
import secrets
import uuid
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.coverages import Nature
from claims.denials import DenialCode
from claims.models.beneficiaries import RequesterRelationship
from claims.models.sales import MONEY, Channel, Coverage, Sale
from claims.permissions import Permission
from claims.awaiting import Awaiting
from claims.regulatory_clock import ClockKind
from claims.workflow import OPEN_STATUSES, Action, ClaimStatus, EventName, TimelineEntry

# The condition of the workbench's partial indexes: workbench.queues.INSURER_CLAIMS.
INSURER = Q(is_sandbox=False)


def new_claim_number() -> str:
    # 12 characters of Crockford base32 (~60 random bits): unique in practice,
    # unguessable from any other number; the unique index is the final word.
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    return "SIN-" + "".join(secrets.choice(alphabet) for _ in range(12))


class Claim(models.Model):
    """A claim notice (sinistro) on one coverage of a sale."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # Unique through Meta.constraints, which (unlike unique=True) adds no second
    # varchar_pattern_ops index on PostgreSQL: numbers are only ever compared exactly.
    number = models.CharField("número do sinistro", max_length=20, default=new_claim_number)
    sale = models.ForeignKey(Sale, on_delete=models.PROTECT, related_name="claims", verbose_name="venda")
    # The sale's channel, copied at the opening (a sale never changes channel): every
    # read by channel (the API's pages, the list's filter, the per-channel figures)
    # finds a channel's claims without joining a million sales. On PostgreSQL a
    # composite foreign key (claim_channel_is_sales, migration 0033) holds it equal to
    # the sale's.
    channel = models.ForeignKey(Channel, on_delete=models.PROTECT, related_name="claims",
                                verbose_name="canal", editable=False, db_index=False)
    coverage = models.ForeignKey(
        Coverage, on_delete=models.PROTECT, related_name="claims", verbose_name="cobertura"
    )
    status = models.CharField(max_length=40, choices=ClaimStatus.choices)
    # Opened by a sandbox channel (its ``is_sandbox``, copied once at the opening): the
    # same services move it, but no analyst's view, task, e-mail, red flag or SRO
    # registration ever includes it (docs/sandbox.md). A database default too: the column
    # is added to a live table, and a process still running the previous release inserts
    # claims without it.
    is_sandbox = models.BooleanField("sandbox", default=False, db_default=False, editable=False)
    nature = models.CharField("natureza", max_length=40, choices=Nature.choices, blank=True)
    amount = models.DecimalField("valor", **MONEY)
    outstanding_balance = models.DecimalField("saldo devedor", null=True, blank=True, **MONEY)
    occurred_at = models.DateTimeField("data da ocorrência")
    notified_at = models.DateTimeField("data do aviso")
    requester_name = models.CharField("solicitante", max_length=200)
    # On a death, who reports it and follows the claim is someone else: who they are to
    # the deceased, and their CPF (11 digits; never the deceased's: claims.services.opening).
    # Database defaults: a process of the previous release still inserts claims without them.
    requester_relationship = models.CharField(
        "parentesco do solicitante", max_length=30, blank=True, default="", db_default="",
        choices=RequesterRelationship.choices)
    requester_tax_id = models.CharField("CPF do solicitante", max_length=11, blank=True,
                                        default="", db_default="")
    contact_name = models.CharField("contato", max_length=200)
    contact_email = models.EmailField("e-mail do contato", blank=True)
    contact_phone_area_code = models.CharField("DDD do contato", max_length=3, blank=True)
    contact_phone_number = models.CharField("telefone do contato", max_length=11, blank=True)
    narrative = models.TextField("relato do ocorrido", blank=True)
    additional_data = models.JSONField("dados adicionais", default=dict, blank=True)
    denied_at = models.DateTimeField("data da recusa", null=True, blank=True)
    # The reasoned denial (claims.denials): the text the insured person and the channel
    # read (``recusa.descricao``, the letter), the SUSEP reason code and the policy clause
    # it rests on; after the art. 86 deadline, the legal justification for denying anyway.
    # The supervisor's internal note is only in the DENY history row. Reopening clears them.
    denial_reason = models.TextField("texto da recusa para o segurado", blank=True)
    denial_code = models.PositiveSmallIntegerField("motivo da recusa (SUSEP)", null=True,
                                                   blank=True, choices=DenialCode.choices)
    denial_clause = models.CharField("cláusula da recusa", max_length=200, blank=True)
    denial_late_justification = models.TextField("justificativa da recusa fora do prazo",
                                                 blank=True)
    # Bumped by every service change: a form shown at version N may only act on N, so
    # two analysts deciding on the same claim cannot both win (compare-and-set).
    version = models.PositiveIntegerField("versão", default=0)
    # The regulatory clock (see claims.regulatory_clock), recomputed from the history by
    # every service change and kept here so the list can sort and filter by deadline.
    clock_kind = models.CharField("prazo regulatório", max_length=20, blank=True,
                                  choices=ClockKind.choices)
    clock_deadline = models.DateTimeField("prazo vence em", null=True, blank=True)
    clock_paused = models.BooleanField("prazo suspenso", default=False)
    # The analysts' workbench (workbench.models, an app above this one: its Team is named
    # by string, never imported): who works the claim, and what it waits for
    # (claims.awaiting, recomputed by every service change, kept here so the queues
    # filter and count by it). Never shown to channels.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                              blank=True, related_name="owned_claims", verbose_name="responsável")
    team = models.ForeignKey("workbench.Team", on_delete=models.PROTECT, null=True, blank=True,
                             related_name="claims", verbose_name="equipe")
    awaiting = models.CharField("aguardando", max_length=20, choices=Awaiting.choices,
                                default=Awaiting.ANALYSIS)
    # The first decision on cover (recognised or denied), for the days-to-decision figures.
    decided_at = models.DateTimeField("decidido em", null=True, blank=True)
    days_to_decision = models.PositiveIntegerField("dias até a decisão", null=True, blank=True)
    # How late that first decision was (Lei 15.040/2024, art. 86): None before it, 0 in
    # time, N calendar days (local time) past the decision deadline as the clock stood
    # just before it (claims.regulatory_clock.decision_days_late). Migration 0020 filled
    # it for claims decided before, from their history.
    decided_late_days = models.PositiveIntegerField("dias de atraso na decisão", null=True,
                                                    blank=True)
    # When the claim last reached a closed status (claims.workflow.CLOSED_STATUSES); None
    # while open (reopening clears it). Kept by claims.services.recording.record_move: the
    # retention clock (privacy.clock) counts from it. Migration 0040 filled it from history.
    closed_at = models.DateTimeField("encerrado em", null=True, blank=True)
    # The claim list's search (claims.search_text): the names and identifiers folded into
    # lowercase words without accents or punctuation, written by whoever writes them. On
    # PostgreSQL a trigram index answers ``LIKE '%word%'`` on it (migration 0013).
    search_text = models.TextField("texto de busca", blank=True, default="", editable=False)
    # Red flags for the analysts (claims.red_flags): ``[{"codigo", "texto"}]``, kept by
    # the services that change what they read; ``has_alerts`` for the list's filter.
    alerts = models.JSONField("alertas", default=list, blank=True, editable=False)
    has_alerts = models.BooleanField("com alertas", default=False, editable=False)
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)
    # Set by whoever changes the claim, to the change's moment (``record_move``'s ``at``):
    # not auto_now, which would date a change of the demo's past by the day it was loaded.
    updated_at = models.DateTimeField("atualizado em", default=timezone.now, editable=False)

    # The claim page's own rows (workbench.selectors.PageRows), set by
    # selectors.claim_for_analyst only: the admin's claim page and its actions read them.
    page_rows = None

    class Meta:
        verbose_name = "sinistro"
        verbose_name_plural = "sinistros"
        ordering = ["-created_at"]
        permissions = Permission.choices  # claims.permissions: the one list
        indexes = [
            # A person's claims by CPF (the access report, a CPF's holds and requests,
            # docs/privacy-access.md): the requester's, when given.
            models.Index(fields=["requester_tax_id"], name="claim_requester_tax_id",
                         condition=~Q(requester_tax_id="")),
            # The retention run's first cut (privacy.clock): closed claims by closing date.
            models.Index(fields=["closed_at"], name="claim_closed_at",
                         condition=Q(closed_at__isnull=False)),
            # The workbench's indexes hold the insurer's claims only (``INSURER`` in their
            # condition): its lists and counts always leave the partners' sandbox claims
            # out (workbench.queues.INSURER_CLAIMS), so the planner still answers them from
            # the index alone, and the sandbox adds nothing to them.
            # The list's order for every claim ("Todos os sinistros", a search, a filter):
            # the deadline, then age; also the deadline filters' ranges.
            models.Index(fields=["clock_deadline", "notified_at", "id"], condition=INSURER,
                         name="claim_deadline_order"),
            models.Index(fields=["created_at", "id"], name="claim_created"),
            # A channel's claims, newest first (the API's pages; the list's channel filter).
            models.Index(fields=["channel", "created_at", "id"], name="claim_channel_created"),
            models.Index(fields=["notified_at"], name="claim_notified"),
            # Its status and nature filters: the count, and the newest of that status.
            models.Index(fields=["status", "created_at", "id"], name="claim_status_created"),
            models.Index(fields=["nature"], name="claim_nature"),
            # "Prazo suspenso": few claims, found without reading the others, in the
            # list's order (ordered by creation, the list walked the deadline order and
            # threw away 191,489 rows for 50 at a million claims).
            models.Index(fields=["clock_deadline", "notified_at", "id"],
                         condition=INSURER & Q(clock_paused=True), name="claim_clock_paused"),
            # The queues (Meus sinistros, Minha equipe, Sem responsável) in their order:
            # the deadline (PostgreSQL's ascending b-tree puts NULLs last, as the list
            # does), then age. Open claims only: the closed ones are most of the table.
            # What they include answers the dashboard's counts (by Aguardando, by deadline,
            # each analyst's load) and "Sem responsável"'s team test from the index alone,
            # without reading the claims.
            models.Index(fields=["owner", "clock_deadline", "notified_at", "id"],
                         include=["awaiting", "clock_paused"],
                         condition=INSURER & Q(status__in=sorted(OPEN_STATUSES)),
                         name="claim_owner_queue"),
            models.Index(fields=["team", "clock_deadline", "notified_at", "id"],
                         include=["owner", "clock_paused"],
                         condition=INSURER & Q(status__in=sorted(OPEN_STATUSES)),
                         name="claim_team_queue"),
            models.Index(fields=["clock_deadline", "notified_at", "id"], include=["team"],
                         condition=INSURER & Q(status__in=sorted(OPEN_STATUSES),
                                               owner__isnull=True),
                         name="claim_unassigned_queue"),
            # The dashboard's oldest open claims.
            models.Index(fields=["notified_at", "id"],
                         condition=INSURER & Q(status__in=sorted(OPEN_STATUSES)),
                         name="claim_open_by_age"),
            # Days to decision (and how many late) over the last 90 days, from the index alone.
            models.Index(fields=["decided_at"],
                         include=["days_to_decision", "decided_late_days", "channel"],
                         condition=INSURER & Q(decided_at__isnull=False), name="claim_decided"),
            # "Com alertas": few claims, in the list's order.
            models.Index(fields=["clock_deadline", "notified_at", "id"],
                         condition=INSURER & Q(has_alerts=True), name="claim_with_alerts"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["number"], name="claim_number_unique"),
            # The contract's "one open claim per coverage", enforced where races end.
            models.UniqueConstraint(
                fields=["coverage"],
                condition=Q(status__in=sorted(OPEN_STATUSES)),
                name="claim_one_open_per_coverage",
            ),
            models.CheckConstraint(condition=Q(amount__gte=0), name="claim_amount_not_negative"),
        ]

    def __str__(self):
        return self.number

    @property
    def paid_amount(self) -> Decimal:
        # Uses the prefetched payments when the selector loaded them.
        return sum((p.amount for p in self.payments.all() if p.counts), Decimal("0.00"))

    @property
    def remaining_amount(self) -> Decimal:
        return max(self.amount - self.paid_amount, Decimal("0.00"))

    @property
    def is_credit_life(self) -> bool:
        """Prestamista: the channel reports an outstanding balance owed to a creditor."""
        return self.outstanding_balance is not None


class ClaimHistory(models.Model):
    """Who did what to a claim, the status before and after, and the event it wrote."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="history", verbose_name="sinistro")
    # A workflow move (Action) or the analysts' own work (TimelineEntry: notes, owners,
    # tasks, proposals), which changes no status, writes no event and is never shown to
    # channels or insured people.
    action = models.CharField("ação", max_length=40,
                              choices=[*Action.choices, *TimelineEntry.choices])
    from_status = models.CharField("de", max_length=40, blank=True, choices=ClaimStatus.choices)
    to_status = models.CharField("para", max_length=40, choices=ClaimStatus.choices)
    # "canal:<slug>", "usuario:<username>", "sistema:..." or "operacao:<command>".
    actor = models.CharField("autor", max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name="usuário",
    )
    note = models.TextField("observação", blank=True)
    # Four-eyes decisions: who proposed what ``user`` approved (workbench.services.approvals).
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name="proposto por",
    )
    event = models.OneToOneField(
        "Event", on_delete=models.PROTECT, null=True, blank=True, related_name="history_entry",
        verbose_name="evento",
    )
    # Not auto_now_add: opening a claim writes its clock with the claim's INSERT, from
    # this row's time, so it sets the time itself (claims.services.opening).
    created_at = models.DateTimeField("em", default=timezone.now)

    class Meta:
        verbose_name = "histórico"
        verbose_name_plural = "histórico"
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.get_action_display()} ({self.get_to_status_display()})"

    def save(self, *args, **kwargs):
        # The timeline is a record: notes and moves are corrected by a new row, never
        # by editing an old one.
        if not self._state.adding:
            raise ValueError("Linhas do histórico não se alteram: registre uma nova.")
        super().save(*args, **kwargs)


class Event(models.Model):
    """Outbox row: written with the change it describes, delivered later."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    channel = models.ForeignKey(Channel, on_delete=models.PROTECT, related_name="events",
                                verbose_name="canal")
    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="events",
                              verbose_name="sinistro")
    name = models.CharField("evento", max_length=60, choices=EventName.choices)
    details = models.JSONField("detalhes")
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)
    # Set once the event was fanned out to the channel's subscriptions (webhooks app);
    # the sweeper looks for the ones still null, so a lost task loses nothing.
    relayed_at = models.DateTimeField("distribuído em", null=True, blank=True)

    class Meta:
        verbose_name = "evento"
        verbose_name_plural = "eventos"
        ordering = ["created_at", "id"]
        indexes = [
            # The events list (newest first) and every reader in this order.
            models.Index(fields=["created_at", "id"], name="event_created"),
            # The webhook sweep pages through the events not yet relayed in this order.
            models.Index(fields=["created_at", "id"], condition=models.Q(relayed_at__isnull=True),
                         name="event_not_relayed"),
        ]

    def __str__(self):
        return f"{self.get_name_display()} ({self.name})"

    def envelope(self) -> dict:
        return webhook_envelope(event_id=self.id, name=self.name, created_at=self.created_at,
                                details=self.details)


def webhook_envelope(*, event_id, name: str, created_at: dt.datetime, details: dict) -> dict:
    """The contract's webhook envelope (version 1): every event, and the webhooks' ping."""
    return {
        "id-evento": str(event_id),
        "evento": name,
        "criado-em": created_at.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z"),
        "versao": "1",
        "detalhes": details,
    }
