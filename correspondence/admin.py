"""The letters in the admin: the claim page's "Correspondência" section and timeline
rows, a letter's preview, PDF and resending, sending the hosted link or a reminder
(with a preview first), and each channel's letter settings and paragraphs."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone

from workbench.admin import panels
from claims.formatting import local_moment, person
from claims.forms import GroupedForm
from claims.models import Claim
from workbench.models import ToDo
from claims.permissions import VIEW_CLAIM, Permission
from workbench.services.todos import close_todo
from claims.signals import ReadKind, data_read
from claims.workflow import CLOSED_STATUSES, ClaimStatus
from correspondence import downloads, letters, rendering, services
from correspondence.models import ChannelLetters, Letter, LetterText, Message

WORK = Permission.WORK_CLAIM.perm
# The letters an analyst sends by hand from the claim page; the rest follow the moves.
BY_HAND = {Letter.HOSTED_LINK: "Enviar link de acompanhamento",
           Letter.DOCUMENTS_REMINDER: "Enviar lembrete de documentos"}


def status_words(message: Message) -> str:
    to = f" para {message.recipient_email}" if message.recipient_email else ""
    words = {
        Message.Status.PENDING: f"Na fila de envio{to}" + _retry_words(message),
        Message.Status.SENT: f"Enviada{to} em {local_moment(message.sent_at)}",
        Message.Status.DELIVERED: f"Entregue{to} em {local_moment(message.delivered_at)}",
        Message.Status.BOUNCED: f"Devolvida{to} em {local_moment(message.bounced_at)}",
        Message.Status.FAILED: f"Não enviada{to}: {message.last_error}",
        Message.Status.WITH_CHANNEL: "Com o canal, que comunica o segurado (não enviada "
                                     "por e-mail)",
    }[message.status]
    if message.read_at:
        words += f" · lida nas páginas do segurado em {local_moment(message.read_at)}"
    return words


# A try taken (attempts counted) that wrote nothing: its worker stopped before the
# server answered, or is still waiting for it.
INTERRUPTED = "o envio foi interrompido antes de o servidor de e-mail responder"


def _retry_words(message: Message) -> str:
    """Which try comes next and why the last one did not do: always a reason."""
    if not message.attempts:
        return ""
    if message.lease_until and message.lease_until > timezone.now() and not message.last_error:
        # Held by a worker right now (a failed try also waits on the lease, with its error).
        return f" (tentativa {message.attempts} em andamento)"
    return (f" (tentativa {message.attempts + 1}; a anterior falhou: "
            f"{message.last_error or INTERRUPTED})")


@dataclass(frozen=True)
class TimelineRow:
    created_at: datetime
    timeline_label: str
    timeline_note: str
    timeline_by: str
    timeline_kind: str = "carta"


def timeline(claim: Claim) -> list[TimelineRow]:
    return [TimelineRow(m.created_at, f"Carta “{m.get_letter_display()}” para {m.recipient_name}",
                        status_words(m), person(m.created_by) if m.created_by else "sistema")
            for m in claim.messages.select_related("created_by")]


def section(request, claim: Claim) -> dict:
    rows = list(claim.messages.select_related("created_by"))
    for message in rows:
        message.words = status_words(message)
    can_send = request.user.has_perm(WORK)
    tells = rendering.settings_of(claim.channel).channel_tells_insured
    return {"claim": claim, "letters": rows, "can_send": can_send, "can_resend": can_send and not tells,
            "channel_tells": tells,
            "denial_received_at": denial_received_at(claim, rows),
            "by_hand": [(slug, label) for slug, label in BY_HAND.items()
                        if claim.status not in CLOSED_STATUSES
                        # With the channel telling its insured, no link reaches anyone.
                        and not (tells and slug == Letter.HOSTED_LINK)
                        and (slug != Letter.DOCUMENTS_REMINDER or _pending(claim))]}


def denial_received_at(claim: Claim, rows: list[Message]):
    """When the current denial was first received (art. 126: the prescription runs from
    then): the earliest proof among its letters, None without any."""
    if claim.status != ClaimStatus.DENIED:
        return None
    proofs = [m.received_at for m in rows
              if m.letter == Letter.DENIAL and m.received_at and claim.denied_at
              and m.created_at >= claim.denied_at - timedelta(minutes=5)]
    return min(proofs) if proofs else None


def _pending(claim: Claim) -> bool:
    return any(r.approved_at is None for r in claim.document_requests.all())


class SendForm(GroupedForm):
    email = forms.EmailField(label="E-mail da pessoa para contato",
                             help_text="O da ficha do sinistro; corrija-o aqui se mudou.")
    note = forms.CharField(label="Mensagem (opcional, vai na carta)", required=False,
                           max_length=1000, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, to_channel: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if to_channel:  # the channel forwards it: no address needed
            del self.fields["email"]


class ResendForm(GroupedForm):
    email = forms.EmailField(label="Outro e-mail (opcional)", required=False)


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["created_at", "claim", "letter", "recipient_name", "status"]
    list_filter = ["status", "letter"]
    search_fields = ["=claim__number", "recipient_email"]
    list_select_related = ["claim"]
    readonly_fields = [f.name for f in Message._meta.fields if f.name != "body_html"]
    exclude = ["body_html"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        # A sandbox claim's letters stay with its channel (never e-mailed): not the team's.
        return super().get_queryset(request).filter(claim__is_sandbox=False)

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<uuid:message_id>/ver/", wrap(self.letter_view), name="correspondence_letter"),
            path("<uuid:message_id>/pdf/", wrap(self.pdf_view), name="correspondence_pdf"),
            path("<uuid:message_id>/reenviar/", wrap(self.resend_view),
                 name="correspondence_resend"),
            path("sinistro/<uuid:claim_id>/enviar/<slug:letter>/", wrap(self.send_view),
                 name="correspondence_send"),
            *super().get_urls(),
        ]

    def _message(self, request, message_id) -> Message:
        if not request.user.has_perm(VIEW_CLAIM):
            raise PermissionDenied
        return get_object_or_404(Message.objects.select_related(
            "claim__channel__hosted_pages"), pk=message_id)

    def letter_view(self, request, message_id):
        """The e-mail as it was written, alone in a sandbox (never run in the admin's page)."""
        message = self._message(request, message_id)
        data_read([message.claim_id], kind=ReadKind.LETTER, user=request.user)
        response = HttpResponse(letters.shown(message.body_html))
        response["Content-Security-Policy"] = ("sandbox; default-src 'none'; "
                                               "style-src 'unsafe-inline'; img-src data:")
        return response

    def pdf_view(self, request, message_id):
        message = self._message(request, message_id)
        data_read([message.claim_id], kind=ReadKind.LETTER, user=request.user)
        return downloads.pdf_response(message, inline=True)

    def resend_view(self, request, message_id):
        message = self._message(request, message_id)
        if not request.user.has_perm(WORK):
            raise PermissionDenied
        if rendering.settings_of(message.claim.channel).channel_tells_insured:
            messages.warning(request, "O canal comunica o segurado: as cartas ficam com ele e "
                                      "nada é enviado por e-mail.")
            return HttpResponseRedirect(_claim_url(message.claim_id) + "#correspondencia")
        form = ResendForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            with transaction.atomic():
                copy = services.resend(message, user=request.user,
                                       email=form.cleaned_data["email"])
            messages.success(request, f"Carta na fila de envio para {copy.recipient_email}."
                             if copy.recipient_email else services.NO_ADDRESS)
            return HttpResponseRedirect(_claim_url(message.claim_id))
        return TemplateResponse(request, "admin/correspondence/resend.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "message": message,
            "form": form, "title": f"Reenviar: {message}"})

    def send_view(self, request, claim_id, letter):
        if letter not in BY_HAND:
            raise Http404
        if not request.user.has_perm(WORK):
            raise PermissionDenied
        claim = get_object_or_404(Claim.objects.select_related("channel", "coverage"),
                                  pk=claim_id, is_sandbox=False)
        if claim.status in CLOSED_STATUSES:
            messages.warning(request, "Sinistro encerrado: nada a enviar.")
            return HttpResponseRedirect(_claim_url(claim.pk))
        to_channel = rendering.settings_of(claim.channel).channel_tells_insured
        if to_channel and letter == Letter.HOSTED_LINK:
            messages.warning(request, "O canal comunica o segurado: o link de acompanhamento "
                                      "é o canal que gera e envia.")
            return HttpResponseRedirect(_claim_url(claim.pk))
        form = SendForm(request.POST or None, initial={"email": claim.contact_email},
                        to_channel=to_channel)
        preview = None
        if request.method == "POST" and form.is_valid():
            recipient = services.contact_recipient(claim, form.cleaned_data.get("email", ""))
            note = form.cleaned_data["note"]
            if "enviar" in request.POST:
                with transaction.atomic():
                    services.write_letter(claim, letter, to=[recipient], note=note,
                                          user=request.user)
                    _close_chase_todo(claim, request, recipient.email)
                words = ("gerada e disponível ao canal, que a encaminha" if to_channel
                         else f"na fila de envio para {recipient.email}")
                messages.success(request, f"Carta “{Letter(letter).label}” {words}.")
                return HttpResponseRedirect(_claim_url(claim.pk))
            preview = letters.shown(rendering.letter_part(_preview(claim, letter, recipient,
                                                                   note)),
                                    link_words=letters.LINK_IN_PREVIEW)
        return TemplateResponse(request, "admin/correspondence/send.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "claim": claim,
            "form": form, "preview": preview, "letter_label": BY_HAND[letter],
            "to_channel": to_channel,
            "title": f"{BY_HAND[letter]}: {claim.number}"})


def _close_chase_todo(claim: Claim, request, email: str) -> None:
    """The reminder sent from a "Cobrar documentos" to-do completes that to-do."""
    todo_id = request.GET.get("tarefa", "")
    todo = ToDo.objects.filter(pk=todo_id if todo_id.isdigit() else None, claim=claim,
                               kind=ToDo.Kind.CHASE_DOCUMENTS,
                               status=ToDo.Status.OPEN).first()
    if todo is not None:
        close_todo(todo_id=todo.pk, user=request.user, done=True,
                   note=f"Lembrete de documentos enviado para {email}.")


def _preview(claim: Claim, letter: str, recipient, note: str) -> str:
    channel = rendering.channel_for_letters(claim.channel_id)
    return rendering.render(
        channel=channel, letter=letter, subject=letters.subject_of(claim, letter),
        context=letters.facts(claim, letter, recipient, note=note),
        words=rendering.channel_words(rendering.settings_of(channel), letter)).html


def _claim_url(claim_id) -> str:
    return reverse("admin:claims_claim_change", args=[claim_id])


class LetterTextInline(admin.StackedInline):
    model = LetterText
    extra = 0
    fields = ["letter", "opening", "closing"]


@admin.register(ChannelLetters)
class ChannelLettersAdmin(admin.ModelAdmin):
    list_display = ["channel", "channel_tells_insured", "reminder_every_days"]
    inlines = [LetterTextInline]

    def get_readonly_fields(self, request, obj=None):
        return ["channel"] if obj else []


def todo_link(todo) -> tuple[str, str] | None:
    """"Cobrar documentos" is done by sending the reminder (which closes the to-do)."""
    if todo.kind != ToDo.Kind.CHASE_DOCUMENTS:
        return None
    url = reverse("admin:correspondence_send", args=[todo.claim_id, Letter.DOCUMENTS_REMINDER])
    return "Enviar lembrete", f"{url}?tarefa={todo.pk}"


panels.register(panels.Panel(template="admin/correspondence/section.html", context=section,
                             timeline=timeline, todo_link=todo_link))
