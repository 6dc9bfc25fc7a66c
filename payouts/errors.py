"""Refusals of money-out actions, with their stable problem ids (docs/problems.md).
Imported by PayoutsConfig.ready so the registry is whole."""

from api_common.problem_types import ANALYSTS, ProblemError


class RemittanceNotAllowed(ProblemError):
    status = 422
    problem_id = "remittance-not-allowed"
    title = "Remessa não permitida"
    cause = ("A remessa não está na situação que a ação pede (liberar, cancelar, baixar), "
             "ou quem a gerou tenta liberá-la.")
    action = "Confira a situação da remessa na página Remessas; a liberação é de outra pessoa da tesouraria."
    group = ANALYSTS


class ReturnRefused(ProblemError):
    status = 422
    problem_id = "bank-return-refused"
    title = "Retorno recusado"
    cause = ("O arquivo de retorno não segue o layout CNAB 240, não é de uma conta pagadora "
             "nossa (CNPJ, banco, convênio) ou responde a uma remessa que não enviamos.")
    action = "Confira o arquivo com o banco; nada dele foi aplicado."
    group = ANALYSTS
