"""The claims' records at the registradora (SUSEP's SRO): docs/sro.md.

``Registration``: one per claim (a claim is on one coverage, the "cobertura afetada").
``Submission``: each thing the registradora must be told, in order: the first
registration (``registro``, sequence 0) and every change after it (``alteracao``, sequence
1, 2, ...), with the body built when the fact happened and the deadline it has.
``Batch``: each request sent, with its whole body and the answer, as evidence.
``CoverageCode``: SUSEP's group/branch and coverage code for each coverage name.
"""

from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.coverages import coverage_label


class CoverageCode(models.Model):
    """SUSEP's codes for a coverage of the catalogue, set by the operator: a claim on a
    coverage without them is not sent, and shows an alert (docs/sro.md, "Códigos")."""

    coverage_name = models.CharField("cobertura", max_length=100, unique=True,
                                     help_text="Como nas vendas: cobertura/morte.")
    group_branch = models.CharField(
        "grupo e ramo (SUSEP)", max_length=4,
        validators=[RegexValidator(r"^\d{4}$", "Quatro dígitos: grupo (2) e ramo (2).")],
        help_text="Circular SUSEP 535/2016, tabela de grupos e ramos (ex.: 0977 prestamista).")
    coverage_code = models.CharField(
        "código da cobertura (SUSEP)", max_length=5,
        validators=[RegexValidator(r"^\d{1,5}$", "Até cinco dígitos.")],
        help_text="Tabela de coberturas do leiaute SUSEP do SRO.")
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    class Meta:
        verbose_name = "código SUSEP de cobertura"
        verbose_name_plural = "códigos SUSEP das coberturas"
        ordering = ["coverage_name"]

    def __str__(self):
        return f"{coverage_label(self.coverage_name)}: {self.group_branch} / {self.coverage_code}"


class Registration(models.Model):
    claim = models.OneToOneField("claims.Claim", on_delete=models.PROTECT,
                                 related_name="sro_registration", verbose_name="sinistro")
    # The last sequence given to a change (alteracao_sinistro_codigo); 0: only the registro.
    last_sequence = models.PositiveIntegerField("última alteração", default=0)
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "sinistro registrado no SRO"
        verbose_name_plural = "sinistros registrados no SRO"

    def __str__(self):
        return f"Registro SRO de {self.claim_id}"


class Submission(models.Model):
    """One fact for the registradora: written with the claim move that caused it, sent
    by the beat job in order of ``sequence``; never edited but by the sender (status)
    and a retry after a correction (rebuilt body, docs/sro.md)."""

    class Kind(models.TextChoices):
        REGISTRATION = "registro", "Registro"
        CHANGE = "alteracao", "Alteração"

    class Trigger(models.TextChoices):
        NOTICE = "aviso", "Aviso do sinistro"
        DOCUMENTS = "documentacao", "Documentação completa"
        EVALUATION = "avaliacao", "Conclusão da avaliação"
        RESERVE = "reserva", "Ajuste da reserva"
        PAYMENT = "pagamento", "Pagamento liquidado"
        EXPENSE = "despesa", "Despesa de regulação"
        DENIAL = "recusa", "Recusa"
        CLOSING = "encerramento", "Encerramento"
        REOPENING = "reabertura", "Reabertura"
        CHANGE = "alteracao", "Outra alteração"
        RECTIFICATION = "retificacao", "Retificação"

    class Status(models.TextChoices):
        PENDING = "pendente", "Pendente"
        SENT = "enviado", "Enviado"
        REFUSED = "recusado", "Recusado pela registradora"
        INCOMPLETE = "incompleto", "Incompleto (não enviado)"

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE,
                                     related_name="submissions", verbose_name="registro")
    kind = models.CharField("tipo", max_length=20, choices=Kind.choices)
    sequence = models.PositiveIntegerField("sequência")
    trigger = models.CharField("fato", max_length=20, choices=Trigger.choices)
    sro_status = models.PositiveSmallIntegerField("status SRO")
    rectification = models.BooleanField("retificação", default=False)
    # When the fact happened: the deadline counts from its day (local time).
    occurred_at = models.DateTimeField("fato em")
    deadline = models.DateField("prazo")
    # The claim's item of the request (a ``sinistro`` or ``sinistro_alteracao``), as built
    # from the claim when the fact happened.
    body = models.JSONField("conteúdo")
    # What the layout needs and the claim lacks (a coverage without SUSEP codes, a
    # beneficiary without CEP): not sent while any is missing.
    missing = models.JSONField("faltando", default=list, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField("tentativas", default=0)
    next_try_at = models.DateTimeField("próxima tentativa", null=True, blank=True)
    # A worker holds the submission while it sends (compare-and-set, sro.sending).
    lease_until = models.DateTimeField(null=True, blank=True, editable=False)
    batch_id = models.CharField("identificador do lote", max_length=24, blank=True)
    errors = models.JSONField("erros da registradora", default=list, blank=True)
    last_error = models.TextField("último erro", blank=True)
    sent_at = models.DateTimeField("aceito em", null=True, blank=True)
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "registro SRO"
        verbose_name_plural = "registros SRO"
        ordering = ["registration", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "sequence"],
                                    name="sro_submission_sequence_unique"),
            models.CheckConstraint(
                condition=Q(kind="registro", sequence=0) | Q(kind="alteracao", sequence__gt=0),
                name="sro_submission_kind_sequence"),
        ]
        indexes = [
            # The beat job's and the operators' "not sent yet", oldest deadline first.
            models.Index(fields=["deadline", "id"], condition=~Q(status="enviado"),
                         name="sro_submission_unsent"),
        ]

    def __str__(self):
        return self.get_kind_display() + (f" {self.sequence}" if self.sequence else "")

    @property
    def is_late(self) -> bool:
        """Not accepted and past its deadline day (sro.overview.late_filter, as a query)."""
        return self.status != self.Status.SENT and self.deadline < timezone.localdate()

    @property
    def sent_late(self) -> bool:
        """Accepted by the registradora after its deadline day."""
        return self.sent_at is not None and timezone.localdate(self.sent_at) > self.deadline


class Batch(models.Model):
    """One request to the registradora: the whole body as sent and what it answered."""

    kind = models.CharField("tipo", max_length=20, choices=Submission.Kind.choices)
    submissions = models.ManyToManyField(Submission, related_name="batches",
                                         verbose_name="envios")
    body = models.JSONField("corpo enviado")
    http_status = models.PositiveSmallIntegerField("resposta HTTP", null=True, blank=True)
    answer = models.JSONField("resposta", null=True, blank=True)
    batch_id = models.CharField("identificador do lote", max_length=24, blank=True)
    error = models.TextField("erro", blank=True)
    sent_at = models.DateTimeField("enviado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "lote enviado"
        verbose_name_plural = "lotes enviados"
        ordering = ["-sent_at", "-id"]

    def __str__(self):
        return f"Lote {self.batch_id or self.pk} ({self.http_status or self.error[:40]})"
