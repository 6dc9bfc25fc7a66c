"""The insured person's hosted pages: each channel's brand and link lifetime, and the
temporary links (``gerar-url``) that open a session on one sale."""

import copy
import datetime as dt
import hashlib
import json
import uuid
from decimal import Decimal

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

HEX_COLOR = RegexValidator(r"^#[0-9A-Fa-f]{6}$", "Use uma cor no formato #RRGGBB.")


def default_link_lifetime_hours() -> int:
    return settings.WHITELABEL_LINK_LIFETIME_HOURS


class HostedPages(models.Model):
    """How a channel's hosted pages look and how long its links last. A channel
    without a row gets the defaults (its own name, no logo, the neutral colour, the
    settings' link lifetime)."""

    DEFAULT_COLOR = "#1F4E79"

    channel = models.OneToOneField(
        "claims.Channel", on_delete=models.CASCADE, primary_key=True,
        related_name="hosted_pages", verbose_name="canal",
    )
    display_name = models.CharField(
        "nome exibido", max_length=100, blank=True,
        help_text="Como o segurado conhece o canal. Em branco, o nome do canal.",
    )
    primary_color = models.CharField(
        "cor principal", max_length=7, default=DEFAULT_COLOR, validators=[HEX_COLOR],
        help_text="Cabeçalho e botões. O texto sobre ela fica branco ou preto, o que for "
                  "mais legível.",
    )
    # Re-encoded as PNG on upload (see whitelabel.branding): never the bytes as sent.
    logo_png = models.BinaryField("logotipo (PNG)", null=True, blank=True, editable=False)
    logo_digest = models.CharField("versão do logotipo", max_length=16, blank=True, editable=False)
    link_lifetime_hours = models.PositiveSmallIntegerField(
        "validade dos links (horas)", default=default_link_lifetime_hours,
        validators=[MinValueValidator(1), MaxValueValidator(168)],
        help_text="De 1 a 168 horas (7 dias). A sessão do segurado termina junto com o link.",
    )
    # The letters' e-mail (correspondence): who it is from and where answers go.
    sender_name = models.CharField(
        "remetente das cartas", max_length=100, blank=True,
        help_text="Nome que aparece como remetente dos e-mails ao segurado. Em branco, o "
                  "nome exibido.")
    reply_to = models.EmailField(
        "responder para", blank=True,
        help_text="Para onde vão as respostas do segurado às cartas. Em branco, para o "
                  "remetente do serviço (DEFAULT_FROM_EMAIL).")
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    class Meta:
        verbose_name = "página do segurado"
        verbose_name_plural = "páginas do segurado"

    def __str__(self):
        return f"Páginas do segurado: {self.channel}"

    def set_logo(self, png: bytes | None) -> None:
        self.logo_png = png
        self.logo_digest = hashlib.sha256(png).hexdigest()[:16] if png else ""


def token_digest(token: str) -> str:
    """Link and session tokens are 256 random bits: a fast hash is enough to keep a
    database leak from yielding usable tokens (no password-style stretching needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


class AccessLink(models.Model):
    """A temporary link to the hosted pages for one sale (``gerar-url``).

    The token in the URL is stored only as its digest and is exchanged once for a
    session (another random token, also stored as a digest); both end at
    ``expires_at``."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    sale = models.ForeignKey("claims.Sale", on_delete=models.CASCADE,
                             related_name="access_links", verbose_name="venda")
    user_reference = models.CharField("id-usuario", max_length=200, blank=True)
    # Validated ``detalhes-pagamento`` (English keys), offered when opening a claim.
    # Stored JSON-safe (see ``store_payment_details``); read with
    # ``offered_payment_details``, which gives the date and the share their types back.
    payment_details = models.JSONField("detalhes de pagamento", null=True, blank=True)
    token_digest = models.CharField(max_length=64, unique=True, editable=False)
    session_digest = models.CharField(max_length=64, unique=True, null=True, blank=True,
                                      editable=False)
    created_at = models.DateTimeField("gerado em", default=timezone.now, editable=False)
    expires_at = models.DateTimeField("expira em")
    exchanged_at = models.DateTimeField("usado em", null=True, blank=True)
    ended_at = models.DateTimeField("sessão encerrada em", null=True, blank=True)

    class Meta:
        verbose_name = "link do segurado"
        verbose_name_plural = "links do segurado"
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(expires_at__gt=models.F("created_at")),
                                   name="access_link_expires_after_creation"),
        ]

    def __str__(self):
        return f"Link de {self.created_at:%d/%m/%Y %H:%M} ({self.sale_id})"

    @property
    def actor(self) -> str:
        """Who acts in the claim's history: the insured person through this link."""
        return f"segurado:{self.user_reference or 'link ' + str(self.pk)[:8]}"

    # The beneficiary's members the hosted form does not ask (the person confirms who
    # and how): kept from the link when the person confirms the same tax id.
    UNASKED_MEMBERS = ("birth_date", "address")

    @staticmethod
    def store_payment_details(details: dict | None) -> dict | None:
        """Validated ``detalhes-pagamento`` as JSON can hold them: the serializer gives
        a ``date`` (data-nascimento) and a ``Decimal`` (participacao), which a JSON
        column refuses. ISO date and the Decimal's exact text: nothing is rounded."""
        if details is None:
            return None
        return json.loads(json.dumps(details, cls=DjangoJSONEncoder))

    def offered_payment_details(self) -> dict | None:
        """The stored details with the types the serializer gave them (what the claims
        services expect): the birth date a ``date``, the share a ``Decimal``."""
        if not self.payment_details:
            return None
        details = copy.deepcopy(self.payment_details)
        beneficiary = details["beneficiary"]
        if beneficiary.get("birth_date") is not None:
            beneficiary["birth_date"] = dt.date.fromisoformat(beneficiary["birth_date"])
        if beneficiary.get("share") is not None:
            beneficiary["share"] = Decimal(str(beneficiary["share"]))
        return details

    def completed_payment_details(self, confirmed: dict | None) -> dict | None:
        """What the person confirmed on the hosted form, plus the members the link
        carried for that same person (same tax id) that the form does not ask."""
        offered = self.offered_payment_details()
        if not confirmed or not offered or \
                offered["beneficiary"]["tax_id"] != confirmed["beneficiary"]["tax_id"]:
            return confirmed
        kept = {key: offered["beneficiary"][key] for key in self.UNASKED_MEMBERS
                if key in offered["beneficiary"] and key not in confirmed["beneficiary"]}
        return {**confirmed, "beneficiary": {**confirmed["beneficiary"], **kept}}


class DocumentDownload(models.Model):
    """A copy the person took from the claim's page ("Seus documentos"): one of the
    claim's files or the grounds of its denial (Lei 15.040/2024, arts. 82-83). Who is
    the session's link; kept for as long as the link is."""

    class Kind(models.TextChoices):
        FILE = "arquivo", "Arquivo enviado"
        DENIAL_GROUNDS = "fundamentos-da-recusa", "Fundamentos da recusa (PDF)"

    link = models.ForeignKey(AccessLink, on_delete=models.CASCADE, related_name="downloads",
                             verbose_name="link do segurado")
    claim = models.ForeignKey("claims.Claim", on_delete=models.CASCADE,
                              related_name="hosted_downloads", verbose_name="sinistro")
    kind = models.CharField("o quê", max_length=30, choices=Kind.choices)
    # The file served (empty for the grounds, drawn from the claim).
    file = models.ForeignKey("claims.DocumentFile", on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="+", verbose_name="arquivo")
    file_name = models.CharField("nome do arquivo", max_length=255)
    downloaded_at = models.DateTimeField("baixado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "cópia baixada pelo segurado"
        verbose_name_plural = "cópias baixadas pelo segurado"
        ordering = ["-downloaded_at", "-id"]
        indexes = [models.Index(fields=["claim", "-downloaded_at"],
                                name="download_claim_recent")]

    def __str__(self):
        return f"{self.file_name} ({self.downloaded_at:%d/%m/%Y %H:%M})"
