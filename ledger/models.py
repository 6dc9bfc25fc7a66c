"""The books of claims: the reserve ledger (every change of what a claim owes, never
overwritten), the months finance closed, the reports each close kept, and the chart of
accounts the entries are written to (docs/ledger.md)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.models.sales import MONEY


class Component(models.TextChoices):
    """What a movement's money is: the indemnity (the claim's reserve), the art. 88
    charges paid with it, or a regulation expense."""

    INDEMNITY = "indenizacao", "Indenização"
    LATE_CHARGES = "encargos", "Encargos do art. 88"
    EXPENSE = "despesa", "Despesa de regulação"


class Movement(models.Model):
    """One change of what a claim owes or paid, written in the transaction of the move
    that caused it and never changed afterwards (a PostgreSQL trigger refuses UPDATE and
    DELETE). The sum of a claim's ``reserve`` is its outstanding reserve (the PSL share,
    ledger.balances); the sum of its ``paid`` is what left the insurer for it."""

    class Kind(models.TextChoices):
        NOTICE = "aviso", "Aviso (estimativa inicial)"
        REESTIMATE = "reestimativa", "Reestimativa da reserva"
        PAYMENT_REGISTERED = "pagamento-registrado", "Pagamento registrado"
        PAYMENT_SETTLED = "pagamento-liquidado", "Pagamento liquidado"
        PAYMENT_RETURNED = "pagamento-devolvido", "Ordem devolvida pelo banco"
        PAYMENT_CANCELLED = "pagamento-cancelado", "Pagamento cancelado antes do envio"
        LATE_CHARGES = "encargos", "Encargos do art. 88 pagos"
        EXPENSE = "despesa", "Despesa de regulação"
        CLOSING = "encerramento", "Encerramento (liberação da reserva)"
        REOPENING = "reabertura", "Reabertura"
        RECLASSIFICATION = "reclassificacao", "Reclassificação (data de ocorrência corrigida)"
        OPENING_BALANCE = "ajuste-de-abertura", "Ajuste de abertura do livro"

    id = models.BigAutoField(primary_key=True)
    claim = models.ForeignKey("claims.Claim", on_delete=models.PROTECT,
                              related_name="ledger_movements", verbose_name="sinistro")
    channel = models.ForeignKey("claims.Channel", on_delete=models.PROTECT,
                                related_name="+", verbose_name="canal")
    kind = models.CharField("tipo", max_length=24, choices=Kind.choices)
    component = models.CharField("componente", max_length=12, choices=Component.choices,
                                 default=Component.INDEMNITY)
    # The claim's coverage and SUSEP codes when the movement was written (sro's
    # CoverageCode): blank codes when the coverage had none then.
    coverage_name = models.CharField("cobertura", max_length=100)
    group_branch = models.CharField("grupo e ramo (SUSEP)", max_length=4, blank=True)
    coverage_code = models.CharField("código da cobertura (SUSEP)", max_length=5, blank=True)
    reserve = models.DecimalField("variação da reserva", **MONEY)
    paid = models.DecimalField("pago", default=0, **MONEY)
    # The fact's own figure where reserve and paid are both zero (a payment registered,
    # returned or cancelled): what the fact was about, for the movements report.
    fact_amount = models.DecimalField("valor do fato", default=0, **MONEY)
    occurred_on = models.DateField("data da ocorrência")
    notified_on = models.DateField("data do aviso")
    fact_on = models.DateField("data do fato")
    # The accounting date: the fact's own, or the first day of the first open month when
    # the fact's month was already closed (then ``note`` says what the movement corrects).
    booked_on = models.DateField("data contábil", db_index=True)
    late = models.BooleanField("lançamento tardio", default=False)
    note = models.TextField("histórico", blank=True)
    actor = models.CharField("quem ou o quê", max_length=150)
    history = models.ForeignKey("claims.ClaimHistory", on_delete=models.PROTECT, null=True,
                                blank=True, related_name="+", verbose_name="passo do sinistro")
    payment = models.ForeignKey("claims.Payment", on_delete=models.PROTECT, null=True,
                                blank=True, related_name="+", verbose_name="pagamento")
    expense = models.ForeignKey("claims.Expense", on_delete=models.PROTECT, null=True,
                                blank=True, related_name="+", verbose_name="despesa")
    created_at = models.DateTimeField("escrito em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "movimento do livro de sinistros"
        verbose_name_plural = "movimentos do livro de sinistros"
        ordering = ["claim", "id"]
        indexes = [
            models.Index(fields=["claim", "id"], name="movement_claim"),
            models.Index(fields=["occurred_on", "booked_on"], name="movement_occurrence"),
        ]
        constraints = [
            # Only expenses are not the claim's reserve; they never move it.
            models.CheckConstraint(
                condition=~Q(component="despesa") | Q(reserve=0),
                name="movement_expense_no_reserve"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} de {self.claim_id} em {self.booked_on:%d/%m/%Y}"


class MonthClose(models.Model):
    """A month finance closed: from ``frozen_at`` no movement is booked in it (a late
    fact goes to the first open month). The close is done when its reports are kept and
    its entries reconcile (``status``)."""

    class Status(models.TextChoices):
        FROZEN = "congelado", "Congelado (relatórios pendentes)"
        CLOSED = "fechado", "Fechado"

    month = models.DateField("mês", unique=True, help_text="O primeiro dia do mês.")
    status = models.CharField("situação", max_length=12, choices=Status.choices,
                              default=Status.FROZEN)
    frozen_at = models.DateTimeField("congelado em", default=timezone.now, editable=False)
    closed_at = models.DateTimeField("fechado em", null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  null=True, blank=True, related_name="+",
                                  verbose_name="fechado por")
    actor = models.CharField("quem fechou", max_length=150)
    # What the close found: totals of the PSL, movements and entries, and why a close
    # that could not finish stopped (the reconciliation's differences).
    summary = models.JSONField("resumo", default=dict)
    problems = models.JSONField("divergências", default=list)

    class Meta:
        verbose_name = "fechamento mensal"
        verbose_name_plural = "fechamentos mensais"
        ordering = ["-month"]
        permissions = [("finance", "Fecha meses e lê os livros de sinistros")]
        constraints = [
            models.CheckConstraint(condition=Q(month__day=1), name="month_close_first_day"),
        ]

    def __str__(self):
        return f"{self.month:%m/%Y}"


class Report(models.Model):
    """A report a close kept (or a flash report asked for), as the file finance
    downloads: the PSL inventory, the month's movements, the triangles, the entries."""

    class Kind(models.TextChoices):
        PSL = "psl", "Inventário da PSL"
        MOVEMENTS = "movimentos", "Movimentos"
        PAID_TRIANGLE = "triangulo-pago", "Triângulo de sinistros pagos"
        INCURRED_TRIANGLE = "triangulo-incorrido", "Triângulo de sinistros incorridos"
        ENTRIES = "lancamentos", "Lançamentos contábeis"

    close = models.ForeignKey(MonthClose, on_delete=models.CASCADE, related_name="reports",
                              verbose_name="fechamento")
    kind = models.CharField("relatório", max_length=24, choices=Kind.choices)
    file_format = models.CharField("formato", max_length=4)  # csv, xlsx
    filename = models.CharField("nome do arquivo", max_length=100)
    content = models.BinaryField("arquivo")
    sha256 = models.CharField("SHA-256", max_length=64)
    rows = models.PositiveIntegerField("linhas")
    created_at = models.DateTimeField("gerado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "relatório do fechamento"
        verbose_name_plural = "relatórios do fechamento"
        ordering = ["close", "kind", "file_format"]
        constraints = [
            models.UniqueConstraint(fields=["close", "kind", "file_format"],
                                    name="report_once_per_close"),
        ]

    def __str__(self):
        return self.filename


class Account(models.Model):
    """An account of the insurer's chart (the code the ERP knows, and its name)."""

    code = models.CharField("conta", max_length=30, unique=True)
    name = models.CharField("nome", max_length=200)

    class Meta:
        verbose_name = "conta contábil"
        verbose_name_plural = "contas contábeis"
        ordering = ["code"]

    def __str__(self):
        return f"{self.code} {self.name}"


class AccountRule(models.Model):
    """Which accounts a movement kind's money goes to: the debit and credit of a positive
    amount (a negative one swaps them). ``group_branch`` blank: every ramo without a rule
    of its own."""

    kind = models.CharField("tipo de movimento", max_length=24, choices=Movement.Kind.choices)
    component = models.CharField("componente", max_length=12, choices=Component.choices)
    # Which figure of the movement the rule books: its reserve change or its payment.
    figure = models.CharField("valor", max_length=8,
                              choices=[("reserve", "Variação da reserva"), ("paid", "Pago")])
    group_branch = models.CharField("grupo e ramo (SUSEP)", max_length=4, blank=True)
    debit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+",
                              verbose_name="débito")
    credit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+",
                               verbose_name="crédito")
    history = models.CharField("histórico padrão", max_length=200)

    class Meta:
        verbose_name = "regra de contabilização"
        verbose_name_plural = "regras de contabilização"
        ordering = ["kind", "component", "figure", "group_branch"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "component", "figure", "group_branch"],
                                    name="account_rule_once"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} ({self.get_figure_display()})"
