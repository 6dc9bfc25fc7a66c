"""Documents: what each coverage requires, what a claim asks for, the files sent."""

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.coverages import coverage_label
from claims.coverages import Nature
from claims.models.claims import Claim


class DocumentRequirement(models.Model):
    """Which document types a coverage (and nature) requires when a claim opens.

    Global by default; ``product_combo_id`` narrows a requirement to one product.
    """

    coverage_name = models.CharField("cobertura", max_length=100)
    nature = models.CharField("natureza", max_length=40, choices=Nature.choices, blank=True,
                              help_text="Em branco: vale para qualquer natureza.")
    product_combo_id = models.UUIDField("id do combo de produto", null=True, blank=True,
                                        help_text="Em branco: vale para todos os produtos.")
    doc_type = models.SlugField("tipo", max_length=60, db_index=False)
    title = models.CharField("título", max_length=200)
    is_active = models.BooleanField("ativo", default=True)

    class Meta:
        verbose_name = "documento exigido"
        verbose_name_plural = "documentos exigidos"
        ordering = ["coverage_name", "nature", "doc_type"]
        # Two partial constraints instead of NULLS NOT DISTINCT, which SQLite lacks.
        constraints = [
            models.UniqueConstraint(
                fields=["coverage_name", "nature", "doc_type"],
                condition=Q(product_combo_id__isnull=True),
                name="document_requirement_unique_global",
            ),
            models.UniqueConstraint(
                fields=["coverage_name", "nature", "product_combo_id", "doc_type"],
                condition=Q(product_combo_id__isnull=False),
                name="document_requirement_unique_product",
            ),
        ]

    def __str__(self):
        nature = f" ({self.get_nature_display()})" if self.nature else ""
        return f"{coverage_label(self.coverage_name)}{nature}: {self.title}"


class DocumentRequest(models.Model):
    """One requested document type on a claim; pending until the insurer approves."""

    claim = models.ForeignKey(
        Claim, on_delete=models.CASCADE, related_name="document_requests", verbose_name="sinistro"
    )
    doc_type = models.SlugField("tipo", max_length=60, db_index=False)
    title = models.CharField("título", max_length=200)
    # A document of one person (an heir's identity, their proof of relationship), not
    # of the claim as a whole.
    beneficiary = models.ForeignKey(
        "claims.Beneficiary", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="document_requests", verbose_name="beneficiário",
    )
    requested_at = models.DateTimeField("solicitado em")
    note = models.TextField("observação", blank=True)
    approved_at = models.DateTimeField("aprovado em", null=True, blank=True)

    class Meta:
        verbose_name = "documento solicitado"
        verbose_name_plural = "documentos solicitados"
        ordering = ["requested_at", "id"]

    def __str__(self):
        return self.title


# Rejections because the claim closed before the file arrived start so.
CLOSED_CLAIM_REASON = "Sinistro encerrado antes da chegada do arquivo"


class DocumentFile(models.Model):
    """A file sent for a claim: announced by ``enviar-documento``, then PUT by the
    caller straight to storage, then checked here before it counts."""

    class Status(models.TextChoices):
        AWAITING_UPLOAD = "aguardando-envio", "Aguardando envio"
        RECEIVED = "recebido", "Recebido"
        REJECTED = "rejeitado", "Rejeitado"
        EXPIRED = "expirado", "Link expirado sem envio"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="files", verbose_name="sinistro")
    # The pending item this file answered, set when the file is accepted.
    request = models.ForeignKey(
        DocumentRequest, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="files", verbose_name="documento solicitado",
    )
    doc_type = models.SlugField("tipo", max_length=60, db_index=False)
    file_name = models.CharField("nome do arquivo", max_length=255)
    sent_at = models.DateTimeField("data de envio (informada)")
    external_id = models.CharField("id externo", max_length=200, blank=True)
    content_type = models.CharField("tipo de conteúdo", max_length=100)
    # Generated here, random: not derivable from the claim or the file id.
    storage_key = models.CharField("chave no armazenamento", max_length=300)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.AWAITING_UPLOAD)
    size = models.PositiveBigIntegerField("tamanho (bytes)", null=True, blank=True)
    rejection_reason = models.CharField("motivo da rejeição", max_length=300, blank=True)
    upload_expires_at = models.DateTimeField("link de envio expira em")
    received_at = models.DateTimeField("recebido em", null=True, blank=True)
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "arquivo"
        verbose_name_plural = "arquivos"
        ordering = ["created_at", "id"]
        constraints = [
            # Not unique=True: that adds a LIKE index on PostgreSQL, and keys are only
            # ever compared exactly.
            models.UniqueConstraint(fields=["storage_key"], name="file_storage_key_unique"),
        ]
        indexes = [
            models.Index(
                fields=["upload_expires_at"],
                condition=Q(status="aguardando-envio"),
                name="file_awaiting_upload",
            ),
        ]

    def __str__(self):
        return self.file_name

    @property
    def rejected_for_closed_claim(self) -> bool:
        """Rejected because the claim closed before the file arrived (the upload URL and
        the hosted pages answer those differently)."""
        return self.rejection_reason.startswith(CLOSED_CLAIM_REASON)
