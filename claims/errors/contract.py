"""Errors of the channels' contract (/api/v1): its problem ids are exact (docs/problems.md)."""

from api_common.problem_types import OPERATIONS, ProblemError


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
