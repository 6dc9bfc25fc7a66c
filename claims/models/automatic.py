"""A claim whose cover was recognised by rules, with no person (the ``decisions`` app
runs the rules; the claims app records what they decided, so its API, letters and pages
say it without knowing the engine)."""

from django.db import models

from claims.models.claims import Claim


class AutomaticDecision(models.Model):
    """The rules that approved a claim's documentation and paid its shares.

    ``review_task``: the supervisor's to-do (workbench.ToDo) made when the person asked for the decision
    to be reviewed by a person (LGPD art. 20). ``reversed_at``: a quality reviewer (a
    sample) or that supervisor undid it before the money left.
    """

    claim = models.OneToOneField(Claim, on_delete=models.CASCADE, related_name="automatic_decision",
                                 verbose_name="sinistro")
    rule_set = models.CharField("conjunto de regras", max_length=200)
    version = models.PositiveIntegerField("versão das regras")
    reasons = models.JSONField("motivos", default=list)
    decided_at = models.DateTimeField("decidido em")
    review_requested_at = models.DateTimeField("revisão humana pedida em", null=True, blank=True)
    review_task = models.ForeignKey("workbench.ToDo", on_delete=models.SET_NULL, null=True,
                                    blank=True, related_name="+", verbose_name="tarefa de revisão")
    reversed_at = models.DateTimeField("revertida em", null=True, blank=True)
    reversed_note = models.TextField("motivo da reversão", blank=True)

    class Meta:
        verbose_name = "decisão automática"
        verbose_name_plural = "decisões automáticas"

    def __str__(self):
        return f"{self.rule_set} v{self.version}"

    @property
    def label(self) -> str:
        """How the history and the letters name who decided."""
        return f"Decisão automática — regras v{self.version}"
