"""What the claim page's upload script calls: an upload link for one pending item (the
API's ``enviar-documento``, same service), then, after the browser's PUT, whether the
file was accepted. JSON in and out; CSRF-protected like every form."""

from django.conf import settings
from django.http import JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from api_common import ratelimit
from api_common.problem_types import ProblemError
from api_common.problems import flatten_validation_errors
from claims import services
from claims.models import DocumentFile
from claims.serializers import DocumentUploadInputSerializer
from whitelabel import selectors, wording
from whitelabel.views.session import insured_page


def _answer(message: str, status: int, headers=None) -> JsonResponse:
    return JsonResponse({"mensagem": message}, status=status, headers=headers)


@require_POST
@insured_page(json=True)
def start_upload(request, number: str):
    claim = selectors.claim_of_sale(request.sale, number)
    if claim is None:
        return _answer("Sinistro não encontrado.", 404)
    window = ratelimit.current_window("whitelabel-uploads", str(request.access_link.pk),
                                      settings.WHITELABEL_RATE_WINDOW_SECONDS)
    if ratelimit.count(window) > settings.WHITELABEL_UPLOAD_RATE_LIMIT:
        minutes = max(1, round(window.retry_after / 60))
        return _answer(f"Muitos envios seguidos. Tente de novo em {minutes} min.", 429,
                       headers={"Retry-After": str(window.retry_after)})
    size = request.POST.get("tamanho", "")
    if size.isdigit() and int(size) > settings.UPLOAD_MAX_BYTES:
        return _answer(f"O arquivo passa de {settings.UPLOAD_MAX_BYTES // (1024 * 1024)} MB.", 400)
    data = DocumentUploadInputSerializer(data={
        "nome-arquivo": request.POST.get("nome-arquivo", ""),
        "tipo": request.POST.get("tipo", ""),
        "data-envio": timezone.now().isoformat(),
    })
    if not data.is_valid():
        first = flatten_validation_errors(data.errors)[0]
        return _answer(first["mensagem"], 400)
    try:
        document, url = services.request_document_upload(
            channel=request.sale.channel, number=claim.number, **data.validated_data)
    except ProblemError as refusal:
        fields = refusal.extra.get("campos-invalidos") or [{"mensagem": refusal.detail}]
        return _answer(fields[0]["mensagem"], refusal.status)
    return JsonResponse({
        "url": url,
        "tipo-de-conteudo": document.content_type,
        "confirmar": reverse("whitelabel:confirm-upload",
                             kwargs={"number": claim.number, "file_id": document.pk}),
    })


@require_POST
@insured_page(json=True)
def confirm_upload(request, number: str, file_id):
    """After the PUT: S3 uploads are checked now (the bucket's notification may come
    later); local ones were checked as they arrived."""
    claim = selectors.claim_of_sale(request.sale, number)
    document = claim and DocumentFile.objects.filter(pk=file_id, claim=claim).first()
    if not document:
        return _answer("Arquivo não encontrado.", 404)
    document = services.confirm_document_upload(file_id=document.pk)
    if document.status == DocumentFile.Status.RECEIVED:
        return JsonResponse({"situacao": "recebido", "mensagem": "Arquivo recebido."})
    if document.status == DocumentFile.Status.REJECTED:
        return JsonResponse({"situacao": "rejeitado",
                             "mensagem": wording.rejection_words(document.rejection_reason)})
    return JsonResponse({"situacao": "aguardando",
                         "mensagem": "O arquivo ainda não chegou. Tente enviar de novo."})
