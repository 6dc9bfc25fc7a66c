"""Problems of the files' way in and out: the local upload URL (the S3 mode gets the
bucket's own answers), the bucket's notifications and the local download link."""

from api_common.problem_types import UPLOAD, ProblemError
from claims.errors import BusinessRuleError


class UploadLinkInvalid(ProblemError):
    status = 403
    problem_id = "upload-link-invalid"
    title = "Link de envio inválido"
    cause = "O url-envio foi alterado ou não aponta para nenhum arquivo."
    action = (
        "Use o url-envio exatamente como foi devolvido; se perdeu, peça outro em "
        "enviar-documento."
    )
    group = UPLOAD
    default_detail = "O link de envio foi alterado ou não existe."


class UploadLinkExpired(ProblemError):
    status = 403
    problem_id = "upload-link-expired"
    title = "Link de envio expirado"
    cause = (
        "O url-envio passou da validade (UPLOAD_URL_EXPIRE_SECONDS, 15 minutos por "
        "padrão)."
    )
    action = "Peça um novo url-envio em enviar-documento e envie logo."
    group = UPLOAD
    default_detail = "O link de envio expirou; peça um novo em enviar-documento."


class DownloadLinkInvalid(ProblemError):
    status = 403
    problem_id = "download-link-invalid"
    title = "Link de download inválido"
    cause = (
        "Link de download local expirado, alterado ou de arquivo que não está mais "
        "recebido."
    )
    action = "Peça um novo link em GET /api/v1/sinistros/{numero-sinistro}/documentos/{id}."
    group = UPLOAD
    default_detail = "O link de download foi alterado, expirou ou o arquivo não está mais disponível."


class UploadAlreadyReceived(ProblemError):
    status = 409
    problem_id = "upload-already-received"
    title = "Link de envio já utilizado"
    cause = "O url-envio já recebeu um arquivo: cada link vale uma vez."
    action = "Para outro arquivo, peça um novo link em enviar-documento."
    group = UPLOAD
    default_detail = "Este link já recebeu um arquivo; peça um novo link para enviar outro."


class UploadContentTypeMismatch(ProblemError):
    status = 415
    problem_id = "upload-content-type-mismatch"
    title = "Content-Type diferente do esperado"
    cause = "O Content-Type do PUT não é o tipo-de-conteudo devolvido com o link."
    action = "Envie o PUT com Content-Type igual a tipo-de-conteudo."
    group = UPLOAD


class UploadLengthRequired(ProblemError):
    status = 411
    problem_id = "upload-length-required"
    title = "Content-Length obrigatório"
    cause = "PUT em url-envio sem Content-Length (ou com Transfer-Encoding, como chunked)."
    action = "Envie o arquivo inteiro com Content-Length; o link continua válido."
    group = UPLOAD
    default_detail = (
        "Envie o arquivo inteiro num PUT com Content-Length (sem Transfer-Encoding: chunked); "
        "o link continua válido."
    )


class UploadTooLarge(ProblemError):
    status = 413
    problem_id = "upload-too-large"
    title = "Arquivo grande demais"
    cause = "O arquivo passa de UPLOAD_MAX_BYTES; o arquivo é rejeitado."
    action = "Reduza o arquivo (ou digitalize em resolução menor) e envie por um novo link."
    group = UPLOAD


class UploadNotificationNotQueued(ProblemError):
    status = 503
    problem_id = "upload-notification-not-queued"
    title = "Notificação não enfileirada"
    cause = (
        "A notificação de arquivo criado chegou, mas a fila de tarefas não respondeu: "
        "nada foi registrado."
    )
    action = (
        "Reenvie a notificação mais tarde (o armazenamento reenvia sozinho as que não "
        "receberam 2xx)."
    )
    group = UPLOAD
    default_detail = "A fila de tarefas não respondeu; reenvie a notificação."


class UploadRejected(BusinessRuleError):
    problem_id = "upload-rejected"
    title = "Arquivo rejeitado"
    cause = (
        "O arquivo chegou mas não passou na conferência (vazio, ou conteúdo que não é "
        "do tipo declarado); detail diz por quê."
    )
    action = "Envie o arquivo certo por um novo link."
    group = UPLOAD
