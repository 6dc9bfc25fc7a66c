"""The insured person's pages: home, opening a claim, a claim, payment data. Every claim
is found through the session's sale; changes go through ``claims.services``."""

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from api_common.http_problems import InvalidField
from api_common.problem_types import ProblemError
from claims import errors, services
from claims.coverages import coverage_label, pays_on_death
from claims.documents import storage
from claims.formatting import phone
from claims.forms import PaymentDetailsForm
from claims.models import Reconsideration
from claims.services import reconsiderations
from claims.signals import ReadKind, data_read
from claims.workflow import ClaimStatus
from whitelabel import extensions, selectors, wording
from whitelabel.forms import (
    EarlyBeneficiaryForm,
    HostedOpenClaimForm,
    HumanReviewForm,
    HostedPaymentDetailsForm,
    OptionalPaymentDetailsForm,
    ReconsiderationForm,
)
from whitelabel.views.session import insured_page


def _claim_url(number: str) -> str:
    return reverse("whitelabel:claim", kwargs={"number": number})


def not_found(request):
    return render(request, "whitelabel/not_found.html", {"brand": request.brand}, status=404)


@require_GET
@insured_page
def home(request):
    sale = request.sale
    claims = list(selectors.claims_of_sale(sale))
    for claim in claims:
        claim.coverage_words = coverage_label(claim.coverage.name)
        claim.badge = wording.status_badge(claim.status)
    coverages = list(sale.coverages.order_by("name"))
    for coverage in coverages:
        coverage.words = coverage_label(coverage.name)
    reader = selectors.reader_of(sale, claims)
    return render(request, "whitelabel/home.html", {
        "brand": request.brand, "sale": sale, "claims": claims, "coverages": coverages,
        # Nobody is greeted before they say who they are: the link may be read by the
        # insured person or, after a death, by a relative.
        "reader": reader, "insured_reads": reader == sale.insured_name,
        "can_open": sale.is_active and any(c.is_active for c in coverages),
    })


@require_http_methods(["GET", "POST"])
@insured_page
def open_claim(request):
    sale, link = request.sale, request.access_link
    coverages = {c.name: coverage_label(c.name) for c in selectors.active_coverages(sale)}
    # A coverage with a claim under way cannot take another: shown, with that claim.
    communicated = selectors.open_claim_numbers(sale)
    available = [name for name in coverages if name not in communicated]
    chosen = request.POST.get("coverage") or request.GET.get("cobertura", "")
    if chosen not in available and len(coverages) == 1:
        chosen = next(iter(coverages))
    if chosen not in available:
        return render(request, "whitelabel/choose_coverage.html", {
            "brand": request.brand, "sale": sale, "any_available": bool(available),
            "coverages": [(name, words, communicated.get(name))
                          for name, words in coverages.items()],
        })
    who = {"on_death": pays_on_death(chosen), "insured": (sale.insured_name, sale.insured_cpf)}
    if request.method == "POST":
        form = HostedOpenClaimForm(request.POST, coverage=chosen, sale=sale)
        payment = OptionalPaymentDetailsForm(request.POST, prefix="pagamento", **who)
        # Both checked, so every mistake on the page shows at once.
        if all([form.is_valid(), payment.is_valid()]):
            try:
                claim = services.open_claim(
                    channel=sale.channel, sale_id=sale.pk, actor=link.actor,
                    payment_details=link.completed_payment_details(
                        payment.cleaned_data["payment_details"]),
                    **form.cleaned_data["opening"],
                )
            except errors.ClaimAlreadyOpenedForCoverage as refusal:
                number = refusal.extra["numero-sinistro"]
                form.add_error(None, format_html(
                    'Já existe um sinistro aberto para esta cobertura. '
                    '<a href="{}">Acompanhe o sinistro {}</a>.', _claim_url(number), number))
            except errors.OccurrenceOutsideValidity:
                form.add_error("occurred_at", (
                    "Esta data está fora do período coberto pelo seu seguro "
                    f"({sale.valid_from:%d/%m/%Y} a {sale.valid_until:%d/%m/%Y})."))
            except (errors.BeneficiaryNotAllowed, errors.SharesAboveWhole) as refusal:
                payment.add_error(None, refusal.detail)
            except InvalidField as refusal:
                for item in refusal.extra.get("campos-invalidos", []):
                    field = form.FIELD_FOR_CAMPO.get(item["campo"])
                    form.add_error(field if field in form.fields else None, item["mensagem"])
            except ProblemError as refusal:
                words = wording.OPENING_REFUSALS.get(type(refusal), refusal.detail)
                form.add_error(None, words.format(brand=request.brand.name))
            else:
                messages.success(request, f"Sinistro {claim.number} comunicado.")
                return HttpResponseRedirect(_claim_url(claim.number))
    else:
        # After a death, whoever reports it is someone else: nothing of the insured's.
        insured = {} if pays_on_death(chosen) else {
            "requester_name": sale.insured_name, "contact_name": sale.insured_name,
            "contact_email": sale.insured_email,
            "contact_phone": phone(sale.insured_phone_number, sale.insured_phone_area_code),
        }
        form = HostedOpenClaimForm(coverage=chosen, sale=sale, initial=insured)
        payment = OptionalPaymentDetailsForm(
            prefix="pagamento", initial=_link_payment_initial(link, who["on_death"]), **who)
    return render(request, "whitelabel/open_claim.html", {
        "brand": request.brand, "sale": sale, "form": form, "payment": payment,
        "coverage": coverages[chosen], "several_coverages": len(coverages) > 1,
    })


@require_GET
@insured_page
def claim(request, number: str):
    page = selectors.claim_page(request.sale, number)
    if page is None:
        return not_found(request)
    extensions.claim_page_opened.send(sender=type(page.claim), claim=page.claim)
    # Read through the person's own link: no user, no channel (docs/privacy-access.md).
    data_read([page.claim.pk], kind=ReadKind.CLAIM_PAGE)
    response = render(request, "whitelabel/claim.html", {
        "brand": request.brand, "page": page, "claim": page.claim,
        "sections": extensions.sections(request, page.claim),
        **_denial_context(page),
        "automatic": getattr(page.claim, "automatic_decision", None),
        "review_form": HumanReviewForm(),
        "awaiting_payment_data": page.claim.status == ClaimStatus.PENDING_PAYMENT_DATA,
        "on_death": pays_on_death(page.claim.coverage.name),
        "max_bytes": str(settings.UPLOAD_MAX_BYTES),  # a number, not "20.971.520"
        "max_megabytes": settings.UPLOAD_MAX_BYTES // (1024 * 1024),
        "extensions": ",".join(sorted(settings.UPLOAD_ALLOWED_TYPES)),
        "accept": ",".join(sorted({f".{e}" for e in settings.UPLOAD_ALLOWED_TYPES}
                                  | set(settings.UPLOAD_ALLOWED_TYPES.values()))),
    })
    # The browser sends files straight to the storage (S3 or our upload URL).
    response._csp_update = {"connect-src": storage.current().browser_upload_origins()}
    return response


@require_http_methods(["GET", "POST"])
@insured_page
def payment_details(request, number: str):
    """Who receives and how. On a death, the requester gives the beneficiaries or heirs
    one at a time, each with their part, until the parts make 100%: at any step while
    the claim is open (their payment data may then come later), and with their payment
    data when the insurer asks for them. On a living claim, the insured person's own
    payment data, when asked."""
    sale, link = request.sale, request.access_link
    claim = selectors.claim_of_sale(sale, number)
    if claim is None:
        return not_found(request)
    asked = claim.status == ClaimStatus.PENDING_PAYMENT_DATA
    if not asked and not selectors.can_name_payees(claim):
        messages.info(request, "Este sinistro não está aguardando dados de pagamento.")
        return HttpResponseRedirect(_claim_url(number))
    on_death = pays_on_death(claim.coverage.name)
    who = {"on_death": on_death, "insured": (sale.insured_name, sale.insured_cpf)}
    form_class = HostedPaymentDetailsForm if asked else EarlyBeneficiaryForm
    if request.method == "POST":
        form = form_class(request.POST, **who)
        if form.is_valid():
            try:
                services.supply_payment_details(
                    channel=sale.channel, number=number, actor=link.actor,
                    payment_details=link.completed_payment_details(
                        form.cleaned_data["payment_details"]),
                )
            except ProblemError as refusal:
                form.add_error(None, refusal.detail)
            else:
                return _after_payee_given(request, sale, number, asked=asked, on_death=on_death)
    else:
        initial = {} if on_death else _own_payment_initial(claim, link)
        form = form_class(initial=initial, **who)
    payees = selectors.payees(claim)
    return render(request, "whitelabel/payment_details.html", {
        "brand": request.brand, "claim": claim, "form": form, "on_death": on_death,
        "coverage": coverage_label(claim.coverage.name), "payees": payees, "asked": asked,
        "parts_given": sum((p.share for p in payees if p.share), 0),
    })


def _after_payee_given(request, sale, number: str, *, asked: bool, on_death: bool):
    """The next person while the parts do not make 100%; else back to the claim."""
    claim = selectors.claim_of_sale(sale, number)
    parts = sum((p.share for p in selectors.payees(claim) if p.share), 0)
    if on_death and (claim.status == ClaimStatus.PENDING_PAYMENT_DATA or
                     (not asked and parts < 100)):
        messages.success(request, "Dados recebidos. Informe agora a próxima pessoa.")
        return HttpResponseRedirect(request.path)
    messages.success(request, "Dados de pagamento recebidos. Obrigado!" if asked
                     else "Beneficiários informados. Obrigado!")
    return HttpResponseRedirect(_claim_url(number))


def _own_payment_initial(claim, link) -> dict:
    """A living claim's form: the insured person's data as given before (by the channel
    or on this page), else the link's defaults."""
    insured = next((b for b in claim.beneficiaries.all() if b.kind == "segurado"), None)
    if insured is not None and insured.payment_method:
        return PaymentDetailsForm.initial_from({
            "beneficiary": {"kind": insured.kind, "name": insured.name, "tax_id": insured.tax_id},
            "payment_method": insured.payment_method})
    return _link_payment_initial(link, on_death=False)


def _link_payment_initial(link, on_death: bool) -> dict:
    """The link's default payment data, only when they are the right person's: on a
    death the channel's default (the insured's, usually) is not the heirs'."""
    details = link.offered_payment_details()
    if not details or on_death != (details["beneficiary"]["kind"] == "outro"):
        return {}
    initial = PaymentDetailsForm.initial_from(details)
    # The heir's own fields on a death (the hosted form's, not the admin's).
    beneficiary = details["beneficiary"]
    initial["beneficiario_parentesco"] = beneficiary.get("relationship", "")
    initial["beneficiario_participacao"] = beneficiary.get("share")
    return initial


def _denial_context(page, form=None) -> dict:
    """A denied claim's page: the denial's terms (never the team's internal note), the
    requests for reconsideration, the form to ask for one when the rule allows another
    (docs/denials.md), and what remains after a kept denial."""
    if page.claim.status != ClaimStatus.DENIED:
        return {}
    shown = page.reconsiderations
    rule = reconsiderations.next_request(
        shown, page.claim.shown_files,
        denied_since=reconsiderations.denied_since(page.claim.history.all()))
    asks = rule in (reconsiderations.NextRequest.OPEN,
                    reconsiderations.NextRequest.NEEDS_NEW_DOCUMENTS)
    return {"reconsiderations": list(reversed(shown)),
            "reconsideration_form": (form or ReconsiderationForm()) if asks else None,
            "needs_new_documents": rule == reconsiderations.NextRequest.NEEDS_NEW_DOCUMENTS,
            "reconsideration_limit": rule == reconsiderations.NextRequest.LIMIT_REACHED,
            "denial_kept": bool(shown) and shown[-1].status == Reconsideration.Status.KEPT,
            "ombudsman": settings.INSURER_OMBUDSMAN_TEXT,
            "susep": settings.SUSEP_CONSUMER_TEXT}


@require_POST
@insured_page
def reconsideration(request, number: str):
    """Ask for the reconsideration of the session's denied claim: the insured person, or
    on a death the requester who follows the claim."""
    sale, link = request.sale, request.access_link
    claim = selectors.claim_of_sale(sale, number)
    if claim is None:
        return not_found(request)
    form = ReconsiderationForm(request.POST)
    if form.is_valid():
        role = (Reconsideration.Role.REQUESTER if pays_on_death(claim.coverage.name)
                else Reconsideration.Role.INSURED)
        try:
            services.request_reconsideration(claim_id=claim.pk, role=role, actor=link.actor,
                                             text=form.cleaned_data["motivo"])
        except ProblemError as refusal:
            messages.error(request, wording.reconsideration_refusal(refusal))
        else:
            messages.success(request, "Pedido de reconsideração enviado. A seguradora vai "
                                      "analisar e responder por aqui.")
        return HttpResponseRedirect(_claim_url(number))
    page = selectors.claim_page(sale, number)
    return render(request, "whitelabel/claim.html", {
        "brand": request.brand, "page": page, "claim": page.claim,
        **_denial_context(page, form), "on_death": pays_on_death(page.claim.coverage.name),
    }, status=400)


@require_POST
@insured_page
def human_review(request, number: str):
    """Ask that a person review what the rules decided alone (LGPD art. 20): a
    supervisor's task. Offered only on a claim the rules decided."""
    claim = selectors.claim_of_sale(request.sale, number)
    if claim is None:
        return not_found(request)
    form = HumanReviewForm(request.POST)
    text = form.cleaned_data["motivo"] if form.is_valid() else ""
    try:
        services.request_human_review(claim_id=claim.pk, actor=request.access_link.actor,
                                      text=text)
    except ProblemError as refusal:
        messages.error(request, str(getattr(refusal, "detail", refusal)))
    else:
        messages.success(request, "Pedido enviado. Uma pessoa da seguradora vai revisar a "
                                  "decisão automática.")
    return HttpResponseRedirect(_claim_url(number))
