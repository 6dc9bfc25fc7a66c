"""Domain errors of the claims core, each with a stable problem id (see docs/problems.md)."""

from api_common.problems import ProblemError


class SaleNotFound(ProblemError):
    status = 404
    problem_id = "sale-not-found"
    title = "Venda não encontrada"
    default_detail = "Nenhuma venda com este id-venda para o canal."


class SaleOfAnotherChannel(ProblemError):
    status = 409
    problem_id = "sale-of-another-channel"
    title = "Venda de outro canal"


class ClaimNotFound(ProblemError):
    status = 404
    problem_id = "claim-not-found"
    title = "Sinistro não encontrado"
    default_detail = "Nenhum sinistro com este número para o canal."


class DocumentNotFound(ProblemError):
    status = 404
    problem_id = "document-not-found"
    title = "Documento não encontrado"
    default_detail = "Nenhum arquivo recebido com este id neste sinistro."


class BusinessRuleError(ProblemError):
    status = 422


class ClaimAlreadyOpenedForCoverage(BusinessRuleError):
    problem_id = "claim-already-opened-for-coverage"
    title = "Sinistro já aberto para a cobertura"
    default_detail = "Já existe um sinistro em aberto para esta cobertura."

    def __init__(self, number: str):
        super().__init__(**{"numero-sinistro": number})


class InsuranceLmgExhausted(BusinessRuleError):
    problem_id = "insurance-lmg-exhausted"
    title = "LMG esgotado"
    default_detail = "O limite máximo de garantia (LMG) da apólice está esgotado."


class CoverageLmiExhausted(BusinessRuleError):
    problem_id = "coverage-lmi-exhausted"
    title = "LMI esgotado"
    default_detail = "O limite máximo de indenização (LMI) da cobertura está esgotado."


class SaleNotActive(BusinessRuleError):
    problem_id = "sale-not-active"
    title = "Venda não ativa"
    default_detail = "A venda está cancelada; não aceita novos sinistros."


class SaleCancellationWithOpenClaims(BusinessRuleError):
    problem_id = "sale-cancellation-insurance-has-open-claims"
    title = "Venda com sinistros em aberto"
    default_detail = "A venda tem sinistros em aberto e não pode ser cancelada."


class CoverageNotActive(BusinessRuleError):
    problem_id = "coverage-not-active"
    title = "Cobertura não ativa"
    default_detail = "A cobertura informada não existe ou não está ativa nesta venda."


class OccurrenceOutsideValidity(BusinessRuleError):
    problem_id = "occurrence-outside-validity"
    title = "Ocorrência fora da vigência"
    default_detail = "A data da ocorrência está fora da vigência da venda."


class ClaimClosed(BusinessRuleError):
    problem_id = "claim-closed"
    title = "Sinistro encerrado"
    default_detail = "O sinistro está encerrado (finalizado ou recusado) e não aceita esta operação."


class TransitionNotAllowed(BusinessRuleError):
    problem_id = "transition-not-allowed"
    title = "Mudança de status não permitida"


class ClaimNotAcceptingDocuments(BusinessRuleError):
    problem_id = "claim-not-accepting-documents"
    title = "Sinistro não recebe documentos"
    default_detail = "O sinistro está encerrado (finalizado ou recusado) e não recebe documentos."


# Errors of the local upload URL (the S3 mode gets the bucket's own answers).


class UploadLinkInvalid(ProblemError):
    status = 403
    problem_id = "upload-link-invalid"
    title = "Link de envio inválido"
    default_detail = "O link de envio foi alterado ou não existe."


class UploadLinkExpired(ProblemError):
    status = 403
    problem_id = "upload-link-expired"
    title = "Link de envio expirado"
    default_detail = "O link de envio expirou; peça um novo em enviar-documento."


class DownloadLinkInvalid(ProblemError):
    status = 403
    problem_id = "download-link-invalid"
    title = "Link de download inválido"
    default_detail = "O link de download foi alterado, expirou ou o arquivo não está mais disponível."


class UploadAlreadyReceived(ProblemError):
    status = 409
    problem_id = "upload-already-received"
    title = "Link de envio já utilizado"
    default_detail = "Este link já recebeu um arquivo; peça um novo link para enviar outro."


class UploadContentTypeMismatch(ProblemError):
    status = 415
    problem_id = "upload-content-type-mismatch"
    title = "Content-Type diferente do esperado"


class UploadLengthRequired(ProblemError):
    status = 411
    problem_id = "upload-length-required"
    title = "Content-Length obrigatório"
    default_detail = (
        "Envie o arquivo inteiro num PUT com Content-Length (sem Transfer-Encoding: chunked); "
        "o link continua válido."
    )


class UploadTooLarge(ProblemError):
    status = 413
    problem_id = "upload-too-large"
    title = "Arquivo grande demais"


class UploadRejected(BusinessRuleError):
    problem_id = "upload-rejected"
    title = "Arquivo rejeitado"


# Analysts' moves (admin) and the payment-data endpoint.


class ActionNotPermitted(ProblemError):
    status = 403
    problem_id = "forbidden"
    title = "Acesso negado"


class ClaimChangedConcurrently(ProblemError):
    status = 409
    problem_id = "claim-changed-concurrently"
    title = "Sinistro alterado por outra pessoa"


class PaymentNotAwaitingDetails(BusinessRuleError):
    problem_id = "payment-not-awaiting-details"
    title = "Sinistro não aguarda dados de pagamento"
    default_detail = (
        "Dados de pagamento só são aceitos com o sinistro em pendente-de-dados-de-pagamento."
    )


class ReserveOutOfBounds(BusinessRuleError):
    problem_id = "reserve-out-of-bounds"
    title = "Reserva fora dos limites"


class PaymentNotAllowed(BusinessRuleError):
    problem_id = "payment-not-allowed"
    title = "Pagamento não permitido"


class PaymentAlreadySettled(BusinessRuleError):
    problem_id = "payment-already-settled"
    title = "Pagamento já liquidado"


class FinalizationNotAllowed(BusinessRuleError):
    problem_id = "finalization-not-allowed"
    title = "Finalização não permitida"


class DenialNotAllowed(BusinessRuleError):
    problem_id = "denial-not-allowed"
    title = "Recusa não permitida"


class ReopeningNotAllowed(BusinessRuleError):
    problem_id = "reopening-not-allowed"
    title = "Reabertura não permitida"


class DocumentRequestEmpty(BusinessRuleError):
    problem_id = "document-request-empty"
    title = "Nada a solicitar"
    default_detail = "Escolha ao menos um documento a solicitar ou um arquivo a substituir."


# --- the analysts' workbench (admin only) --------------------------------------------


class AssignmentNotAllowed(BusinessRuleError):
    problem_id = "assignment-not-allowed"
    title = "Atribuição não permitida"


class NoteNotAllowed(BusinessRuleError):
    problem_id = "note-not-allowed"
    title = "Nota não registrada"


class TaskNotAllowed(BusinessRuleError):
    problem_id = "task-not-allowed"
    title = "Tarefa não permitida"


class ProposalNotAllowed(BusinessRuleError):
    problem_id = "proposal-not-allowed"
    title = "Proposta não permitida"


class ProposalStale(ProblemError):
    status = 409
    problem_id = "proposal-stale"
    title = "Proposta obsoleta"
    default_detail = ("O sinistro mudou depois da proposta: ela ficou obsoleta. O analista "
                      "deve revisar o sinistro e propor de novo, se ainda couber.")
