"""Rule sets and their versions, the rules' decisions on claims, the kill switches and
the sampled reviews (docs/decisions.md)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.coverages import Nature, coverage_label


class RuleSet(models.Model):
    """The rules of one coverage (and nature): when a claim may be decided with no person.

    ``mode``: off (never run), shadow (run and recorded, never applied: people decide as
    today and the reports compare), on (the rules act)."""

    class Mode(models.TextChoices):
        OFF = "desligado", "Desligado"
        SHADOW = "sombra", "Sombra (decide no papel)"
        ON = "ligado", "Ligado (decide e paga)"

    name = models.CharField("nome", max_length=200)
    coverage_name = models.CharField("cobertura", max_length=100)
    nature = models.CharField("natureza", max_length=40, choices=Nature.choices, blank=True,
                              help_text="Em branco: vale para qualquer natureza.")
    mode = models.CharField("modo", max_length=20, choices=Mode.choices, default=Mode.OFF)
    description = models.TextField("descrição", blank=True)
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "conjunto de regras"
        verbose_name_plural = "conjuntos de regras"
        ordering = ["coverage_name", "nature"]
        constraints = [
            models.UniqueConstraint(fields=["coverage_name", "nature"],
                                    name="rule_set_one_per_coverage_nature"),
        ]
        permissions = [
            ("edit_rules", "Pode escrever rascunhos de regras de decisão automática"),
            ("publish_rules", "Pode pedir e aprovar a publicação de regras (quatro olhos)"),
            ("switch_rules", "Pode mudar o modo das regras e acionar o desligamento"),
            ("review_samples", "Pode revisar amostras de decisões automáticas"),
        ]

    def __str__(self):
        return self.name

    @property
    def coverage_words(self) -> str:
        nature = f" ({Nature(self.nature).label})" if self.nature else ""
        return f"{coverage_label(self.coverage_name)}{nature}"


class RuleSetVersion(models.Model):
    """A numbered version of a rule set's table. A draft until a supervisor asks to
    publish it and a second supervisor approves (four eyes); then it is frozen, and the
    version it replaces is retired. Every decision names the version that took it."""

    class Status(models.TextChoices):
        DRAFT = "rascunho", "Rascunho"
        AWAITING_APPROVAL = "aguardando-aprovacao", "Aguardando aprovação"
        PUBLISHED = "publicada", "Publicada"
        RETIRED = "substituida", "Substituída"

    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="versions",
                                 verbose_name="conjunto de regras")
    number = models.PositiveIntegerField("versão")
    status = models.CharField("situação", max_length=30, choices=Status.choices,
                              default=Status.DRAFT)
    note = models.TextField("o que mudou", blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   null=True, blank=True, related_name="+",
                                   verbose_name="escrita por")
    created_at = models.DateTimeField("criada em", default=timezone.now, editable=False)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                     null=True, blank=True, related_name="+",
                                     verbose_name="publicação pedida por")
    submitted_at = models.DateTimeField("publicação pedida em", null=True, blank=True)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    null=True, blank=True, related_name="+",
                                    verbose_name="aprovada por")
    published_at = models.DateTimeField("publicada em", null=True, blank=True)
    # Installed by an operator (load_default_rules) rather than through the four eyes.
    installed_by = models.CharField("instalada por", max_length=100, blank=True)

    class Meta:
        verbose_name = "versão das regras"
        verbose_name_plural = "versões das regras"
        ordering = ["rule_set", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["rule_set", "number"], name="rule_version_number_unique"),
            models.UniqueConstraint(fields=["rule_set"], condition=Q(status="publicada"),
                                    name="rule_version_one_published"),
        ]

    def __str__(self):
        return f"{self.rule_set.name} v{self.number}"

    @property
    def is_frozen(self) -> bool:
        return self.status != self.Status.DRAFT


class Decision(models.TextChoices):
    """What a rule may conclude. There is no denial: the rules may propose one to a
    supervisor, never take it (Lei 15.040/2024 arts. 82-83; LGPD art. 20)."""

    APPROVE = "aprovar", "Aprovar e pagar"
    ROUTE = "encaminhar", "Encaminhar a uma pessoa"
    PROPOSE_DENIAL = "propor-recusa", "Propor a recusa a um supervisor"


class Rule(models.Model):
    """One row of a version's decision table: when every condition holds, it fires with
    its decision and reason. Conditions are one per line, ``fato: expressão`` in the
    engine's unary language (``< 90``, ``true``, ``"cobertura/morte"``, ``[1..5]``)."""

    version = models.ForeignKey(RuleSetVersion, on_delete=models.CASCADE, related_name="rules",
                                verbose_name="versão")
    position = models.PositiveIntegerField("ordem", default=0)
    conditions = models.TextField(
        "condições", help_text="Uma por linha: fato: expressão. Por exemplo: "
        "dias_desde_inicio_vigencia: < 90")
    decision = models.CharField("decisão", max_length=20, choices=Decision.choices)
    reason = models.CharField("motivo (para as pessoas)", max_length=300)

    class Meta:
        verbose_name = "regra"
        verbose_name_plural = "regras"
        ordering = ["version", "position", "id"]

    def __str__(self):
        return f"Regra {self.position}: {self.reason}"


class Evaluation(models.Model):
    """The rules' decision on one state of a claim (its version): decided once, whoever
    asked (two workers evaluating one claim find the row). ``effect``: what came of it."""

    class Trigger(models.TextChoices):
        DOCUMENTS_COMPLETE = "documentos-completos", "Documentação completa"
        DOCUMENTS_READ = "documentos-lidos", "Documentos lidos"
        PAYMENT_DATA = "dados-de-pagamento", "Dados de pagamento informados"
        MANUAL = "manual", "Avaliação pedida"

    class Effect(models.TextChoices):
        APPLIED = "aplicada", "Aplicada: decidido e pago sem pessoa"
        SHADOW = "sombra", "Sombra: registrada, não aplicada"
        SWITCHED_OFF = "desligada", "Desligada: registrada, não aplicada"
        ABOVE_LIMIT = "acima-do-limite", "Acima do limite automático: proposta a uma pessoa"
        ROUTED = "encaminhada", "Encaminhada a uma pessoa"
        DENIAL_PROPOSED = "recusa-proposta", "Recusa proposta a um supervisor"
        WAITING_DATA = "aguardando-dados", "Aprovada; aguardando dados de pagamento"
        NOT_APPLIED = "nao-aplicada", "Não aplicada: os serviços recusaram"

    claim = models.ForeignKey("claims.Claim", on_delete=models.CASCADE,
                              related_name="rule_evaluations", verbose_name="sinistro")
    version = models.ForeignKey(RuleSetVersion, on_delete=models.PROTECT,
                                related_name="evaluations", verbose_name="versão das regras")
    claim_version = models.PositiveIntegerField("versão do sinistro")
    trigger = models.CharField("gatilho", max_length=30, choices=Trigger.choices)
    mode = models.CharField("modo", max_length=20, choices=RuleSet.Mode.choices)
    decision = models.CharField("decisão das regras", max_length=20, choices=Decision.choices)
    # Each rule that fired: {"regra", "decisao", "motivo", "fatos": {fact: value}}.
    fired = models.JSONField("regras acionadas", default=list)
    facts = models.JSONField("fatos lidos", default=dict)
    effect = models.CharField("efeito", max_length=30, choices=Effect.choices)
    effect_note = models.TextField("detalhe do efeito", blank=True)
    # What the rules would pay (the shares left), for the shadow and simulation reports.
    planned_amount = models.DecimalField("valor que pagariam", max_digits=14,
                                         decimal_places=2, default=0)
    # What people decided, filled when they do (shadow agreement).
    human_decision = models.CharField("decisão das pessoas", max_length=20, blank=True)
    human_decided_at = models.DateTimeField("decidido pelas pessoas em", null=True, blank=True)
    created_at = models.DateTimeField("avaliado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "decisão das regras"
        verbose_name_plural = "decisões das regras"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["claim", "claim_version"],
                                    name="evaluation_once_per_claim_version"),
        ]
        indexes = [models.Index(fields=["created_at"], name="evaluation_created")]

    def __str__(self):
        return f"{self.get_decision_display()} ({self.version})"

    @property
    def reasons(self) -> list[str]:
        return [rule["motivo"] for rule in self.fired]


class KillSwitch(models.Model):
    """Stops the rules acting (they go on recording, as in shadow) for a coverage, a
    channel, or both; blank means any. Lifted, not deleted: the record stays."""

    coverage_name = models.CharField("cobertura", max_length=100, blank=True,
                                     help_text="Em branco: todas as coberturas.")
    channel = models.ForeignKey("claims.Channel", on_delete=models.PROTECT, null=True,
                                blank=True, related_name="+", verbose_name="canal",
                                help_text="Em branco: todos os canais.")
    reason = models.TextField("motivo")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+", verbose_name="acionado por")
    created_at = models.DateTimeField("acionado em", default=timezone.now, editable=False)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  null=True, blank=True, related_name="+",
                                  verbose_name="religado por")
    lifted_at = models.DateTimeField("religado em", null=True, blank=True)

    class Meta:
        verbose_name = "desligamento das regras"
        verbose_name_plural = "desligamentos das regras"
        ordering = ["-created_at"]

    def __str__(self):
        where = coverage_label(self.coverage_name) if self.coverage_name else "todas as coberturas"
        channel = self.channel.name if self.channel_id else "todos os canais"
        return f"{where} · {channel}"


class SampleReview(models.Model):
    """A quality review of an automatic approval ("amostra"): drawn at random
    (``AUTO_DECISION_SAMPLE_RATE``) or above ``AUTO_DECISION_SAMPLE_ABOVE``. Its payment
    orders wait until ``due_at`` for it; the reviewer confirms or reverses it."""

    class Status(models.TextChoices):
        PENDING = "pendente", "Aguardando revisão"
        CONFIRMED = "confirmada", "Confirmada"
        REVERSED = "revertida", "Revertida"

    class Why(models.TextChoices):
        RANDOM = "sorteio", "Sorteio"
        ABOVE_VALUE = "valor", "Acima do valor de revisão"

    evaluation = models.OneToOneField(Evaluation, on_delete=models.CASCADE,
                                      related_name="sample", verbose_name="decisão das regras")
    why = models.CharField("por quê", max_length=10, choices=Why.choices)
    status = models.CharField("situação", max_length=20, choices=Status.choices,
                              default=Status.PENDING)
    due_at = models.DateTimeField("pagamento retido até")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                 null=True, blank=True, related_name="+", verbose_name="revisor")
    decided_at = models.DateTimeField("revisada em", null=True, blank=True)
    note = models.TextField("observação", blank=True)
    created_at = models.DateTimeField("sorteada em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "amostra de decisão automática"
        verbose_name_plural = "amostras de decisões automáticas"
        ordering = ["due_at", "id"]
        indexes = [models.Index(fields=["due_at"], condition=Q(status="pendente"),
                                name="sample_pending_due")]

    def __str__(self):
        return f"Amostra de {self.evaluation.claim}"
