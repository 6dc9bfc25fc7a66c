"""The rules' errors, each with a stable problem id (docs/problems.md)."""

from api_common.problem_types import ANALYSTS, ProblemError


class RulesNotAllowed(ProblemError):
    status = 422
    problem_id = "rules-not-allowed"
    title = "Mudança nas regras não permitida"
    cause = (
        "Editar uma versão já publicada ou aguardando aprovação, aprovar a própria versão "
        "(quatro olhos), publicar uma tabela que o motor não roda, ou mudar regras sem a "
        "permissão de supervisor."
    )
    action = (
        "Crie um novo rascunho a partir da versão publicada; peça a outro supervisor que "
        "aprove; corrija a regra indicada."
    )
    default_detail = "Mudança nas regras não permitida."
    group = ANALYSTS


class SampleReviewNotAllowed(ProblemError):
    status = 422
    problem_id = "sample-review-not-allowed"
    title = "Revisão de amostra não permitida"
    cause = (
        "A amostra já foi revisada, o revisor não tem a permissão de revisar amostras, ou "
        "a reversão chegou depois de a ordem ir ao banco."
    )
    action = "Atualize a página; uma ordem já enviada é tratada com a tesouraria."
    default_detail = "Revisão de amostra não permitida."
    group = ANALYSTS
