"""Domain errors of the claims core, each with a stable problem id (see docs/problems.md)."""

from api_common.http_problems import Forbidden
from api_common.problem_types import ANALYSTS, OPERATIONS, ProblemError


class SaleNotFound(ProblemError):
    status = 404
    problem_id = "sale-not-found"
    title = "Venda não encontrada"
    cause = "Nenhuma venda com este id-venda para o canal (a de outro canal responde igual)."
    action = "Confira o id-venda (liste as vendas do canal em GET /api/v1/vendas)."
    default_detail = "Nenhuma venda com este id-venda para o canal."


class SaleOfAnotherChannel(ProblemError):
    status = 409
    problem_id = "sale-of-another-channel"
    title = "Venda de outro canal"
    # Published as partners read it (/api/v1/problemas/, docs/problems.md), so it keeps
    # the command's old name, an alias of import_sales for one release: an ops rename
    # changes no published text.
    cause = "import_vendas recebeu um id-venda que já pertence a outro canal."
    action = "Confira o canal e o arquivo importado; um id-venda pertence a um só canal."
    group = OPERATIONS


class ClaimNotFound(ProblemError):
    status = 404
    problem_id = "claim-not-found"
    title = "Sinistro não encontrado"
    cause = (
        "Nenhum sinistro com este numero-sinistro para o canal (o de outro canal "
        "responde igual)."
    )
    action = "Use o numero-sinistro devolvido na abertura do sinistro."
    default_detail = "Nenhum sinistro com este número para o canal."


class DocumentNotFound(ProblemError):
    status = 404
    problem_id = "document-not-found"
    title = "Documento não encontrado"
    cause = (
        "Nenhum arquivo recebido com esse id neste sinistro para o canal (desconhecido, "
        "ainda não recebido, rejeitado, de outro sinistro ou de outro canal)."
    )
    action = "Use um id de documentos-recebidos[].arquivos[] da consulta do sinistro."
    default_detail = "Nenhum arquivo recebido com este id neste sinistro."


class BusinessRuleError(ProblemError):
    status = 422


class ClaimAlreadyOpenedForCoverage(BusinessRuleError):
    problem_id = "claim-already-opened-for-coverage"
    title = "Sinistro já aberto para a cobertura"
    cause = (
        "Já existe um sinistro em aberto (qualquer status exceto finalizado, recusado e "
        "abertura-rejeitada) para esta cobertura."
    )
    action = "Acompanhe o sinistro aberto, cujo número vem em numero-sinistro."
    members = "numero-sinistro: o sinistro em aberto"
    default_detail = "Já existe um sinistro em aberto para esta cobertura."

    def __init__(self, number: str):
        super().__init__(**{"numero-sinistro": number})


class InsuranceLmgExhausted(BusinessRuleError):
    problem_id = "insurance-lmg-exhausted"
    title = "LMG esgotado"
    cause = "Nada resta do limite máximo de garantia (LMG) da apólice."
    action = "Não há valor a indenizar nesta apólice; fale com a seguradora se discordar."
    default_detail = "O limite máximo de garantia (LMG) da apólice está esgotado."


class CoverageLmiExhausted(BusinessRuleError):
    problem_id = "coverage-lmi-exhausted"
    title = "LMI esgotado"
    cause = "Nada resta do limite máximo de indenização (LMI) da cobertura."
    action = "Não há valor a indenizar nesta cobertura; fale com a seguradora se discordar."
    default_detail = "O limite máximo de indenização (LMI) da cobertura está esgotado."


class SaleNotActive(BusinessRuleError):
    problem_id = "sale-not-active"
    title = "Venda não ativa"
    cause = "A venda está cancelada (abertura de sinistro, geração de link whitelabel)."
    action = "Só vendas ativas aceitam sinistros e links."
    default_detail = "A venda está cancelada; não aceita novos sinistros."


class SaleCancellationWithOpenClaims(BusinessRuleError):
    problem_id = "sale-cancellation-insurance-has-open-claims"
    title = "Venda com sinistros em aberto"
    cause = "Cancelamento (status cancelada) de uma venda que tem sinistros em aberto."
    action = "Conclua ou encerre os sinistros da venda antes de cancelá-la."
    group = OPERATIONS
    default_detail = "A venda tem sinistros em aberto e não pode ser cancelada."


class CoverageNotActive(BusinessRuleError):
    problem_id = "coverage-not-active"
    title = "Cobertura não ativa"
    cause = "cobertura não é uma cobertura da venda, ou está inativa."
    action = "Use uma das coberturas ativas listadas na venda (GET /api/v1/vendas/{id-venda})."
    default_detail = "A cobertura informada não existe ou não está ativa nesta venda."


class OccurrenceOutsideValidity(BusinessRuleError):
    problem_id = "occurrence-outside-validity"
    title = "Ocorrência fora da vigência"
    cause = "data-ocorrencia cai fora de inicio-vigencia..fim-vigencia da venda."
    action = "Confira a data da ocorrência; eventos fora da vigência não são cobertos."
    default_detail = "A data da ocorrência está fora da vigência da venda."


class ClaimClosed(BusinessRuleError):
    problem_id = "claim-closed"
    title = "Sinistro encerrado"
    cause = "O saldo devedor de um sinistro finalizado ou recusado não muda."
    action = "Nada a fazer: o sinistro está encerrado."
    default_detail = "O sinistro está encerrado (finalizado ou recusado) e não aceita esta operação."


class BalanceBelowCreditorPaid(BusinessRuleError):
    problem_id = "outstanding-balance-below-creditor-paid"
    title = "Saldo devedor abaixo do já pago ao credor"
    cause = (
        "saldo-devedor menor do que o credor já recebeu neste sinistro (pagamentos "
        "registrados ou liquidados): o credor recebe até o saldo, e o que foi pago não "
        "volta."
    )
    action = (
        "Informe um saldo-devedor de pelo menos o já pago ao credor (dito em detail). Se "
        "o credor recebeu a mais, trate a devolução com a seguradora."
    )
    default_detail = "O saldo devedor informado é menor do que o credor já recebeu."


class TransitionNotAllowed(BusinessRuleError):
    problem_id = "transition-not-allowed"
    title = "Mudança de status não permitida"
    cause = "A ação não é permitida no status atual do sinistro."
    action = (
        "Consulte o sinistro e faça só o que o status atual permite (a tabela do fluxo "
        "está em docs/workflow.md)."
    )


class ClaimNotAcceptingDocuments(BusinessRuleError):
    problem_id = "claim-not-accepting-documents"
    title = "Sinistro não recebe documentos"
    cause = "enviar-documento em um sinistro finalizado ou recusado."
    action = (
        "Sinistros encerrados não recebem documentos; se preciso, peça a reabertura à "
        "seguradora."
    )
    default_detail = "O sinistro está encerrado (finalizado ou recusado) e não recebe documentos."


# Analysts' moves (admin) and the payment-data endpoint.


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


# --- the analysts' workbench (admin only) --------------------------------------------


class AssignmentNotAllowed(BusinessRuleError):
    problem_id = "assignment-not-allowed"
    title = "Atribuição não permitida"
    cause = (
        "Assumir um sinistro já assumido, encerrado ou de outra equipe; reatribuir sem "
        "motivo, para quem não trabalha sinistros ou para fora das equipes que o "
        "supervisor lidera."
    )
    action = ("Recarregue o sinistro; informe o motivo e um analista ativo de uma equipe "
              "sua.")
    group = ANALYSTS


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


class TaskNotAllowed(BusinessRuleError):
    problem_id = "task-not-allowed"
    title = "Tarefa não permitida"
    cause = (
        "Tarefa sem assunto, com vencimento no passado, para quem não trabalha "
        "sinistros, ou já concluída ou cancelada."
    )
    action = "Confira assunto, vencimento e responsável; recarregue a lista de tarefas."
    group = ANALYSTS


class ProposalNotAllowed(BusinessRuleError):
    problem_id = "proposal-not-allowed"
    title = "Proposta não permitida"
    cause = (
        "Já há uma proposta aguardando o supervisor, a proposta já foi decidida, ou "
        "quem aprova é quem propôs."
    )
    action = "Aguarde a decisão da proposta pendente; outro supervisor aprova."
    group = ANALYSTS


class ProposalStale(ProblemError):
    status = 409
    problem_id = "proposal-stale"
    title = "Proposta obsoleta"
    cause = (
        "O sinistro mudou depois da proposta (a versão que o analista viu não é mais a "
        "atual)."
    )
    action = "O analista revisa o sinistro e propõe de novo, se ainda couber."
    group = ANALYSTS
    default_detail = ("O sinistro mudou depois da proposta: ela ficou obsoleta. O analista "
                      "deve revisar o sinistro e propor de novo, se ainda couber.")


# --- reconsideration of a denial (docs/denials.md) -----------------------------------


class ReconsiderationAlreadyPending(ProblemError):
    status = 409
    problem_id = "reconsideration-already-pending"
    title = "Reconsideração já pedida"
    cause = (
        "Já há um pedido de reconsideração deste sinistro aguardando a decisão da "
        "seguradora."
    )
    action = (
        "Aguarde a decisão: o evento sinistro-recusa-mantida ou sinistro-reaberto a "
        "informa. Depois de mantida a recusa, um novo pedido é aceito."
    )
    default_detail = "Já há um pedido de reconsideração deste sinistro aguardando decisão."


class ReconsiderationNotAllowed(BusinessRuleError):
    problem_id = "reconsideration-not-allowed"
    title = "Decisão de reconsideração não permitida"
    cause = (
        "Manter a recusa sem pedido de reconsideração pendente ou sem resposta, "
        "decidir (manter ou reabrir) um pedido sendo quem recusou ou propôs a recusa, "
        "ou um pedido sem texto (páginas do segurado; a API responde 400)."
    )
    action = (
        "Outro supervisor, que não participou da recusa, decide o pedido, com uma "
        "resposta a quem pediu."
    )
    group = ANALYSTS


class ReconsiderationTextMissing(ReconsiderationNotAllowed):
    default_detail = "Escreva por que a seguradora deve reconsiderar a recusa."
