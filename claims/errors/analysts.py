"""Errors of the analysts' moves (admin) and of the payment-data endpoint."""

from api_common.http_problems import Forbidden
from api_common.problem_types import ANALYSTS, ProblemError
from claims.errors.contract import BusinessRuleError


class ActionNotPermitted(Forbidden):
    """The user's role does not allow the move (deny, reopen, settle, a payment above
    the authority limit)."""


class ClaimChangedConcurrently(ProblemError):
    status = 409
    problem_id = "claim-changed-concurrently"
    title = "Sinistro alterado por outra pessoa"
    cause = (
        "O formulário foi aberto numa versão anterior do sinistro: alguém agiu nesse "
        "meio tempo."
    )
    action = "Recarregue o sinistro, confira o que mudou e refaça a ação se ainda couber."
    group = ANALYSTS


class PaymentNotAwaitingDetails(BusinessRuleError):
    problem_id = "payment-not-awaiting-details"
    title = "Sinistro não aceita dados de pagamento"
    cause = "detalhes-pagamento enviados para um sinistro encerrado (finalizado ou recusado)."
    action = "Para um sinistro encerrado, fale com a seguradora: ele precisa ser reaberto."
    default_detail = "Sinistro encerrado: dados de pagamento não são mais aceitos."


class ReserveOutOfBounds(BusinessRuleError):
    problem_id = "reserve-out-of-bounds"
    title = "Reserva fora dos limites"
    cause = "Reserva acima do que resta de LMI/LMG, ou abaixo do que já foi pago."
    action = "Informe um valor entre o já pago e o disponível."
    group = ANALYSTS


class PaymentNotAllowed(BusinessRuleError):
    problem_id = "payment-not-allowed"
    title = "Pagamento não permitido"
    cause = (
        "Pagamento acima de valor-restante, fora de ordem num prestamista (credor "
        "primeiro, até o saldo), liquidação fora de registro..hoje, ou transação já "
        "usada."
    )
    action = "Ajuste valor, beneficiário, data ou transação conforme detail."
    group = ANALYSTS


class BeneficiaryNotAllowed(BusinessRuleError):
    problem_id = "beneficiary-not-allowed"
    title = "Beneficiário não cabe neste sinistro"
    cause = (
        "tipo segurado numa cobertura de morte (o segurado faleceu), ou com CPF que não é "
        "o do segurado da venda, ou com participacao diferente de 100; numa cobertura de "
        "morte, o CPF do segurado em qualquer grafia como beneficiário, credor, "
        "representante legal, favorecido ou chave PIX; tipo credor com o CPF do segurado "
        "ou sem saldo-devedor; tipo outro numa cobertura paga ao próprio segurado; ou a "
        "troca de quem já recebeu pagamentos."
    )
    action = (
        "Na morte, informe os beneficiários designados ou os herdeiros (tipo outro, com "
        "participacao), cada um com o próprio CPF; nas demais coberturas, o próprio "
        "segurado (100%); o credor, com o CNPJ ou CPF de quem concedeu o crédito, só com "
        "saldo-devedor."
    )


class SharesAboveWhole(BusinessRuleError):
    problem_id = "beneficiary-shares-above-100"
    title = "Participações acima de 100%"
    cause = (
        "Com este beneficiário, as participações somariam mais de 100% (ou falta "
        "participacao com outros beneficiários já informados)."
    )
    action = (
        "Informe participacao de modo que o total não passe de 100%; detail diz o total "
        "já informado. Para corrigir a de alguém, envie de novo o mesmo cpf-ou-cnpj."
    )


class PaymentAlreadySettled(BusinessRuleError):
    problem_id = "payment-already-settled"
    title = "Pagamento já liquidado"
    cause = "O pagamento já foi liquidado por outra transação."
    action = "Nada a fazer: confira a liquidação existente."
    group = ANALYSTS


class FinalizationNotAllowed(BusinessRuleError):
    problem_id = "finalization-not-allowed"
    title = "Finalização não permitida"
    cause = (
        "Há pagamentos não liquidados, participações ainda não pagas nem retidas, ou "
        "nenhum pagamento e nenhum motivo."
    )
    action = (
        "Liquide os pagamentos e pague (ou retenha, com motivo) cada participação, ou "
        "informe o motivo de finalizar sem pagamento."
    )
    group = ANALYSTS


class DenialNotAllowed(BusinessRuleError):
    problem_id = "denial-not-allowed"
    title = "Recusa não permitida"
    cause = (
        "Sem o texto para o segurado, sem um código de motivo SUSEP válido, sem a cláusula "
        "da apólice, com data futura, ou com pagamentos já registrados."
    )
    action = (
        "Informe o código SUSEP, a cláusula, o texto para o segurado e uma data até hoje; "
        "com pagamentos, a recusa não cabe."
    )
    group = ANALYSTS


class ReopeningNotAllowed(BusinessRuleError):
    problem_id = "reopening-not-allowed"
    title = "Reabertura não permitida"
    cause = "Sem motivo, com outro sinistro aberto na cobertura, ou sem saldo de LMI/LMG."
    action = "Informe o motivo; encerre antes o outro sinistro da cobertura."
    group = ANALYSTS


class DocumentRequestEmpty(BusinessRuleError):
    problem_id = "document-request-empty"
    title = "Nada a solicitar"
    cause = "Pedido de documentos sem nenhum tipo nem arquivo a substituir."
    action = "Escolha ao menos um documento a solicitar ou um arquivo a substituir."
    group = ANALYSTS
    default_detail = "Escolha ao menos um documento a solicitar ou um arquivo a substituir."


class NoteNotAllowed(BusinessRuleError):
    problem_id = "note-not-allowed"
    title = "Nota não registrada"
    cause = "Nota interna vazia ou longa demais."
    action = "Escreva a nota (até 5.000 caracteres); notas não se editam: uma nova corrige."
    group = ANALYSTS


class CorrectionNotAllowed(BusinessRuleError):
    problem_id = "correction-not-allowed"
    title = "Correção não permitida"
    cause = ("A correção da data da ocorrência sem motivo, igual à atual ou posterior ao "
             "aviso do sinistro.")
    action = "Informe a data que os documentos mostram e o motivo; a vigência da venda vale."
    group = ANALYSTS
