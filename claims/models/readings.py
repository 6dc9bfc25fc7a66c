"""What the service read in a received file (claims.documents.readings): the text, the
fields of a death certificate or a termination of employment, and how they compare
with the claim. One reading per received file, written by a worker, never in the
request that received the file."""

from django.db import models
from django.utils import timezone

from claims.models.documents import DocumentFile


class DocumentReading(models.Model):
    class Status(models.TextChoices):
        PENDING = "pendente", "Pendente"
        READ = "lido", "Lido"
        UNREADABLE = "ilegivel", "Ilegível"
        ERROR = "erro", "Erro"

    class Kind(models.TextChoices):
        DEATH_CERTIFICATE = "certidao-de-obito", "Certidão de óbito"
        TERMINATION = "rescisao", "Rescisão do contrato de trabalho"
        OTHER = "outro", "Outro"

    file = models.OneToOneField(DocumentFile, on_delete=models.CASCADE, primary_key=True,
                                related_name="reading", verbose_name="arquivo")
    status = models.CharField("situação", max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    # The file's content, to tell the same file sent for another person (red flag
    # arquivo-repetido); indexed for that lookup.
    content_sha256 = models.CharField("SHA-256 do conteúdo", max_length=64, blank=True,
                                      db_index=True)
    kind = models.CharField("tipo identificado", max_length=20, choices=Kind.choices,
                            default=Kind.OTHER)
    text = models.TextField("texto lido", blank=True)
    fields = models.JSONField("campos lidos", default=dict, blank=True)
    # [{"fato": "certidão confere", "ok": true|false|null, "detalhe": "..."}]
    checks = models.JSONField("conferências", default=list, blank=True)
    unsure = models.BooleanField("leitura incerta", default=False)
    confidence = models.FloatField("confiança do OCR (0-100)", null=True, blank=True)
    engine = models.CharField("leitor", max_length=60, blank=True)
    pages = models.PositiveSmallIntegerField("páginas lidas", default=0)
    detail = models.CharField("detalhe", max_length=300, blank=True)
    read_at = models.DateTimeField("lido em", null=True, blank=True)
    # When a worker took the reading (compare-and-set while pending): another worker
    # leaves it alone until READING_LEASE has passed (the first one died meanwhile).
    started_at = models.DateTimeField("leitura iniciada em", null=True, blank=True)
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "leitura de arquivo"
        verbose_name_plural = "leituras de arquivos"

    def __str__(self):
        return f"{self.get_kind_display()}: {self.get_status_display()}"

    @property
    def finished(self) -> bool:
        return self.status != self.Status.PENDING
