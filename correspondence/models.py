"""Letters to the people of a claim and the messages that carry them.

A ``Message`` is the outbox row of one letter to one person: written in the
transaction of the move that causes it, rendered then (subject, HTML and text, never
edited afterwards) and sent later by a worker (correspondence.sending). Its PDF is
drawn from the stored HTML (for downloads once, then kept: correspondence.downloads),
so the row is the single source of what the person was told.
"""

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Letter(models.TextChoices):
    RECEIVED = "aviso-recebido", "Aviso recebido"
    DOCUMENTS_REQUESTED = "solicitacao-documentos", "Solicitação de documentos"
    DOCUMENTS_REMINDER = "lembrete-documentos", "Lembrete de documentos"
    DENIAL = "recusa", "Recusa fundamentada"
    DENIAL_KEPT = "recusa-mantida", "Reconsideração: recusa mantida"
    DOCUMENTS_APPROVED = "documentacao-aprovada", "Documentação aprovada"
    PAYMENT_DATA_REQUESTED = "solicitacao-dados-pagamento", "Solicitação de dados de pagamento"
    REOPENED = "reabertura", "Sinistro reaberto"
    PAYMENT = "pagamento", "Pagamento"
    CLOSING = "encerramento", "Encerramento"
    HOSTED_LINK = "link-segurado", "Link para acompanhar o sinistro"
    # The answer to a person's request about their data (LGPD art. 18), with their data
    # attached. Only theirs: never listed to the channel nor on the hosted pages.
    DATA_REQUEST_ANSWER = "resposta-titular", "Resposta à requisição do titular (LGPD)"


# Letters that are the person's alone: the channel's API and the hosted pages skip them.
PRIVATE_LETTERS = (Letter.DATA_REQUEST_ANSWER,)


class Role(models.TextChoices):
    CONTACT = "contato", "Pessoa para contato"
    BENEFICIARY = "beneficiario", "Beneficiário"


class Message(models.Model):
    class Status(models.TextChoices):
        PENDING = "pendente", "Pendente"
        SENT = "enviado", "Enviado"
        FAILED = "falhou", "Falhou"
        DELIVERED = "entregue", "Entregue"
        BOUNCED = "devolvido", "Devolvido"
        WITH_CHANNEL = "com-o-canal", "Com o canal (o canal comunica o segurado)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    claim = models.ForeignKey("claims.Claim", on_delete=models.CASCADE,
                              related_name="messages", verbose_name="sinistro")
    # Denormalised from the claim's sale: the API lists a channel's letters by it.
    channel = models.ForeignKey("claims.Channel", on_delete=models.PROTECT,
                                related_name="+", verbose_name="canal")
    letter = models.CharField("carta", max_length=30, choices=Letter.choices)
    role = models.CharField("destinatário é", max_length=20, choices=Role.choices)
    beneficiary = models.ForeignKey("claims.Beneficiary", on_delete=models.SET_NULL, null=True,
                                    blank=True, related_name="+", verbose_name="beneficiário")
    recipient_name = models.CharField("destinatário", max_length=200)
    recipient_email = models.EmailField("e-mail", blank=True)
    subject = models.CharField("assunto", max_length=300)
    body_html = models.TextField("corpo (HTML)")
    body_text = models.TextField("corpo (texto)")
    attachment_name = models.CharField("anexo", max_length=120)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField("tentativas", default=0)
    last_error = models.CharField("último erro", max_length=500, blank=True)
    # Until then, one worker holds the message (or it waits for its next try).
    lease_until = models.DateTimeField(null=True, blank=True, editable=False)
    provider_id = models.CharField("id no provedor", max_length=200, blank=True)
    created_at = models.DateTimeField("criada em", default=timezone.now, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                                   blank=True, related_name="+", verbose_name="enviada por")
    sent_at = models.DateTimeField("aceita pelo servidor em", null=True, blank=True)
    delivered_at = models.DateTimeField("entregue em", null=True, blank=True)
    bounced_at = models.DateTimeField("devolvida em", null=True, blank=True)
    # The first time the person opened the letter on the hosted pages.
    read_at = models.DateTimeField("lida em", null=True, blank=True)
    # Files of the default storage sent with the e-mail besides the letter's PDF:
    # [{"nome": "<file name>", "caminho": "<storage path>", "tipo": "<content type>"}].
    attachments = models.JSONField("outros anexos", default=list, blank=True)
    resent_from = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", verbose_name="reenvio de")

    class Meta:
        verbose_name = "mensagem"
        verbose_name_plural = "mensagens"
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["claim", "created_at"], name="message_of_claim"),
            # The sweep's look-up: what is still to be sent.
            models.Index(fields=["lease_until"], name="message_to_send",
                         condition=Q(status="pendente")),
        ]

    def __str__(self):
        return f"{self.get_letter_display()} para {self.recipient_name}"

    @property
    def message_id(self) -> str:
        """The e-mail's Message-ID: the same on every try, so a receiver can tell a
        repeat (see docs/correspondence.md, "Never twice")."""
        return f"<{self.id}@{settings.EMAIL_MESSAGE_ID_DOMAIN}>"

    @property
    def received_at(self):
        """Proof of receipt: the provider's report of delivery; for a message handed to
        an SMTP server directly, the moment that server accepted it; and the first
        reading on the hosted pages; whichever came first. (A provider's acceptance is
        not receipt: its own id in ``provider_id`` tells the two apart.)"""
        by_smtp = self.provider_id == self.message_id
        candidates = [self.delivered_at, self.read_at, self.sent_at if by_smtp else None]
        candidates = [moment for moment in candidates if moment]
        return min(candidates) if candidates else None


class ChannelLetters(models.Model):
    """How a channel's people hear from the insurer."""

    channel = models.OneToOneField("claims.Channel", on_delete=models.CASCADE,
                                   primary_key=True, related_name="letters",
                                   verbose_name="canal")
    channel_tells_insured = models.BooleanField(
        "o canal comunica o segurado", default=False,
        help_text="Ligado: nada é enviado por e-mail às pessoas; as cartas continuam sendo "
                  "geradas e o canal as lista e baixa pela API para encaminhá-las.")
    reminder_every_days = models.PositiveSmallIntegerField(
        "lembrete automático de documentos (dias)", null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text="Em branco: sem lembrete automático. Com um número N, enquanto houver "
                  "documentos pendentes, um lembrete sai a cada N dias.")

    class Meta:
        verbose_name = "cartas de um canal"
        verbose_name_plural = "cartas dos canais"

    def __str__(self):
        return f"Cartas: {self.channel}"


class LetterText(models.Model):
    """A channel's own words at the start and end of one letter: plain text, escaped
    when shown and never run as a template."""

    settings = models.ForeignKey(ChannelLetters, on_delete=models.CASCADE, related_name="texts")
    letter = models.CharField("carta", max_length=30, choices=Letter.choices)
    opening = models.TextField("parágrafo de abertura", blank=True, max_length=2000)
    closing = models.TextField("parágrafo de fechamento", blank=True, max_length=2000)

    class Meta:
        verbose_name = "texto de carta"
        verbose_name_plural = "textos das cartas"
        constraints = [models.UniqueConstraint(fields=["settings", "letter"],
                                               name="one_text_per_letter")]

    def __str__(self):
        return self.get_letter_display()
