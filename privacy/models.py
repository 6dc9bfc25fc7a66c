"""Keeping and forgetting (docs/privacy.md): the legal holds that suspend the retention
clock, the runs that anonymise what ran out and their evidence, a person's requests
(LGPD art. 18) and the record of who read a claim's personal data (LGPD art. 37)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class HoldTarget(models.TextChoices):
    CLAIM = "sinistro", "Sinistro"
    SALE = "venda", "Venda"
    CPF = "cpf", "CPF"


class LegalHold(models.Model):
    """A reason to keep records past their term: a lawsuit, a SUSEP sanctioning process,
    anything that interrupts prescription (Circular SUSEP 605/2020). While active it
    suspends the retention clock of the claim, of every claim on the sale, or of every
    claim where the CPF appears (insured, requester, beneficiary, representative, payee).

    Releasing takes two people: one asks (with the reason), another confirms."""

    target = models.CharField("alvo", max_length=10, choices=HoldTarget.choices)
    claim = models.ForeignKey("claims.Claim", on_delete=models.PROTECT, null=True, blank=True,
                              related_name="legal_holds", verbose_name="sinistro")
    sale = models.ForeignKey("claims.Sale", on_delete=models.PROTECT, null=True, blank=True,
                             related_name="legal_holds", verbose_name="venda")
    # Digits only. Kept while the hold is active; a released hold's CPF ends with the
    # records it held (privacy.forgetting).
    cpf = models.CharField("CPF", max_length=11, blank=True)
    reason = models.TextField("motivo")
    # The case number, the SUSEP process, the notice that justifies the hold.
    reference = models.CharField("referência (processo)", max_length=200)
    # Who acted: "usuario:<username>" in the admin, "operacao:<login>" from the shell
    # (manage.py legal_hold): the same words for both, so the two-person rule of the
    # release holds across them.
    placed_by = models.CharField("colocada por", max_length=200)
    placed_at = models.DateTimeField("colocada em", default=timezone.now)
    release_requested_by = models.CharField("liberação pedida por", max_length=200,
                                            blank=True)
    release_requested_at = models.DateTimeField("liberação pedida em", null=True, blank=True)
    release_reason = models.TextField("motivo da liberação", blank=True)
    released_by = models.CharField("liberada por", max_length=200, blank=True)
    released_at = models.DateTimeField("liberada em", null=True, blank=True)

    class Meta:
        verbose_name = "retenção legal"
        verbose_name_plural = "retenções legais"
        ordering = ["-placed_at", "-id"]
        permissions = [
            ("place_hold", "Colocar retenção legal"),
            ("release_hold", "Pedir e confirmar a liberação de retenção legal"),
        ]
        indexes = [
            models.Index(fields=["cpf"], name="hold_active_cpf",
                         condition=Q(released_at__isnull=True) & ~Q(cpf="")),
        ]
        constraints = [
            models.CheckConstraint(
                name="hold_names_its_target",
                condition=(Q(target="sinistro", claim__isnull=False, sale__isnull=True, cpf="")
                           | Q(target="venda", sale__isnull=False, claim__isnull=True, cpf="")
                           | (Q(target="cpf", claim__isnull=True, sale__isnull=True)
                              & ~Q(cpf="")))),
            # Released only after someone asked, and never by the one who asked.
            models.CheckConstraint(
                name="hold_release_by_second_person",
                condition=Q(released_at__isnull=True)
                | (Q(release_requested_at__isnull=False) & ~Q(release_requested_by="")
                   & ~Q(released_by="") & ~Q(released_by=models.F("release_requested_by")))),
        ]

    def __str__(self):
        return f"Retenção {self.pk} ({self.get_target_display()}: {self.reference})"

    @property
    def is_active(self) -> bool:
        return self.released_at is None


class RetentionRun(models.Model):
    """One pass of forgetting (privacy.forgetting): what it found past its clock and
    anonymised, under which rule. Holds no personal data."""

    class Status(models.TextChoices):
        RUNNING = "em-andamento", "Em andamento"
        FINISHED = "concluida", "Concluída"
        FAILED = "falhou", "Falhou"

    started_at = models.DateTimeField("iniciada em", default=timezone.now)
    finished_at = models.DateTimeField("concluída em", null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.RUNNING)
    dry_run = models.BooleanField("simulação", default=False)
    # "beat", "operacao:retention_run", "usuario:<username>".
    started_by = models.CharField("iniciada por", max_length=200)
    # The day the clocks were read on (Brazil's calendar) and the term then in force.
    today = models.DateField("data de referência")
    retention_years = models.PositiveSmallIntegerField("prazo de guarda (anos)")
    rule = models.TextField("regra aplicada")
    claims_anonymised = models.PositiveIntegerField("sinistros anonimizados", default=0)
    sales_anonymised = models.PositiveIntegerField("vendas anonimizadas", default=0)
    files_deleted = models.PositiveIntegerField("arquivos apagados", default=0)
    held = models.PositiveIntegerField("mantidos por retenção legal", default=0)
    error = models.TextField("erro", blank=True)

    class Meta:
        verbose_name = "execução de retenção"
        verbose_name_plural = "execuções de retenção"
        ordering = ["-started_at", "-id"]

    def __str__(self):
        return f"Execução {self.pk} de {self.today:%d/%m/%Y}"


class Anonymisation(models.Model):
    """Evidence that one claim's (or one sale's) personal data ended: when, by which run
    or request, under which rule, and what categories were removed (counts, never the
    data). One per claim and one per sale: two workers can never anonymise one twice."""

    claim = models.OneToOneField("claims.Claim", on_delete=models.PROTECT, null=True,
                                 blank=True, related_name="anonymisation",
                                 verbose_name="sinistro")
    sale = models.OneToOneField("claims.Sale", on_delete=models.PROTECT, null=True,
                                blank=True, related_name="anonymisation", verbose_name="venda")
    run = models.ForeignKey(RetentionRun, on_delete=models.PROTECT, null=True, blank=True,
                            related_name="anonymisations", verbose_name="execução")
    data_request = models.ForeignKey("privacy.DataRequest", on_delete=models.PROTECT,
                                     null=True, blank=True, related_name="anonymisations",
                                     verbose_name="requisição do titular")
    anonymised_at = models.DateTimeField("anonimizado em", default=timezone.now)
    # The clock's end that allowed it (None on a person's request for excess data).
    clock_ended_on = models.DateField("prazo de guarda terminou em", null=True, blank=True)
    rule = models.TextField("regra aplicada")
    # {"<what>": <count>}: rows and files touched per category, no personal data.
    removed = models.JSONField("o que foi removido", default=dict)

    class Meta:
        verbose_name = "anonimização"
        verbose_name_plural = "anonimizações"
        ordering = ["-anonymised_at", "-id"]
        constraints = [
            models.CheckConstraint(
                name="anonymisation_of_one_record",
                condition=Q(claim__isnull=False, sale__isnull=True)
                | Q(claim__isnull=True, sale__isnull=False)),
        ]

    def __str__(self):
        return f"Anonimização {self.pk}"


class RequestKind(models.TextChoices):
    """What a person may ask (LGPD art. 18)."""

    ACCESS = "acesso", "Confirmação e acesso (art. 18, I e II)"
    CORRECTION = "correcao", "Correção (art. 18, III)"
    ANONYMISATION = "anonimizacao", "Anonimização ou eliminação de dados desnecessários (art. 18, IV e VI)"
    PORTABILITY = "portabilidade", "Portabilidade (art. 18, V)"
    SHARING = "compartilhamento", "Informação sobre compartilhamento (art. 18, VII)"


class RequestOrigin(models.TextChoices):
    HOSTED_PAGE = "pagina", "Página do segurado"
    CHANNEL = "canal", "Canal parceiro"
    LETTER = "carta", "Carta"


class DataRequest(models.Model):
    """A person's request about their data (LGPD art. 18), answered within the term of
    art. 19, II (``DATA_REQUEST_DAYS``, 15 calendar days from the request)."""

    class Status(models.TextChoices):
        OPEN = "aberta", "Aberta"
        ANSWERED = "respondida", "Respondida"

    cpf = models.CharField("CPF do titular", max_length=11)
    kind = models.CharField("tipo", max_length=20, choices=RequestKind.choices)
    origin = models.CharField("origem", max_length=10, choices=RequestOrigin.choices)
    channel = models.ForeignKey("claims.Channel", on_delete=models.PROTECT, null=True,
                                blank=True, related_name="+", verbose_name="canal")
    # What the person asked, in their words (a correction: what is wrong and the fix).
    details = models.TextField("pedido", blank=True)
    received_at = models.DateTimeField("recebida em", default=timezone.now)
    due_on = models.DateField("prazo")
    # "usuario:<username>" or "operacao:data_request".
    registered_by = models.CharField("registrada por", max_length=200)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    answered_at = models.DateTimeField("respondida em", null=True, blank=True)
    answered_by = models.CharField("respondida por", max_length=200, blank=True)
    # The answer in words: for a deletion, what is kept, under which obligation, until when.
    answer = models.TextField("resposta", blank=True)
    # The export (access, portability): paths in the default storage.
    export_json = models.CharField("exportação (JSON)", max_length=300, blank=True)
    export_pdf = models.CharField("exportação (PDF)", max_length=300, blank=True)

    class Meta:
        verbose_name = "requisição do titular"
        verbose_name_plural = "requisições dos titulares"
        ordering = ["due_on", "id"]
        permissions = [("answer_request", "Registrar e responder requisições de titulares")]
        indexes = [
            models.Index(fields=["due_on"], name="request_open_due",
                         condition=Q(status="aberta")),
            models.Index(fields=["cpf"], name="request_cpf"),
        ]

    def __str__(self):
        return f"Requisição {self.pk} ({self.get_kind_display()})"


class AccessKind(models.TextChoices):
    CLAIM_PAGE = "pagina", "Página do sinistro"
    EXPORT = "exportacao", "Exportação"
    DOCUMENT = "documento", "Download de documento"
    LETTER = "carta", "Download de carta"
    SEARCH = "busca", "Busca"
    API = "api", "Leitura pela API"
    # The privacy team's own reading of the access report (it names a person's claims).
    REPORT = "relatorio", "Relatório de acessos"


class AccessRecord(models.Model):
    """Someone read a claim's personal data (LGPD art. 37). Append-only and narrow: one
    row per claim read, written by one INSERT per request (privacy.access). Follows the
    claim's retention clock: anonymising the claim deletes its rows."""

    id = models.BigAutoField(primary_key=True)
    at = models.DateTimeField("em", default=timezone.now)
    claim = models.ForeignKey("claims.Claim", on_delete=models.CASCADE, related_name="+",
                              verbose_name="sinistro", db_index=False)
    kind = models.CharField("leitura", max_length=12, choices=AccessKind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                             blank=True, related_name="+", verbose_name="usuário",
                             db_index=False)
    channel = models.ForeignKey("claims.Channel", on_delete=models.PROTECT, null=True,
                                blank=True, related_name="+", verbose_name="canal",
                                db_index=False)

    class Meta:
        verbose_name = "leitura de dados pessoais"
        verbose_name_plural = "leituras de dados pessoais"
        indexes = [models.Index(fields=["claim", "at"], name="access_claim_at")]

    def __str__(self):
        return f"{self.get_kind_display()} em {self.at:%d/%m/%Y %H:%M}"
