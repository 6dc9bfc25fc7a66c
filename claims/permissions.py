"""The insurer's permissions on claims, by name: the one list of codenames.

``Claim.Meta.permissions`` declares them (so a migration creates them), ``claims.roles``
grants them, ``claims.workflow`` says which one each action asks for, and the services,
the admin and the dashboard check them (``claims.services.moves.require_permission``,
``user.has_perm(Permission.X.perm)``). The codenames are stored in ``auth_permission``
and held by groups and users: renaming one is a data migration, not an edit here.
"""

from django.db import models


class Permission(models.TextChoices):
    WORK_CLAIM = "work_claim", "Pode trabalhar sinistros (análise, documentos, reserva, pagamentos)"
    OPEN_CLAIM = "open_claim", "Pode abrir sinistro para uma venda"
    DENY_CLAIM = "deny_claim", "Pode recusar sinistros"
    REOPEN_CLAIM = "reopen_claim", "Pode reabrir sinistros"
    SETTLE_PAYMENT = "settle_payment", "Pode liquidar pagamentos"
    REGISTER_PAYMENT_ABOVE_LIMIT = (
        "register_payment_above_limit", "Pode registrar pagamentos acima da alçada")
    ADJUST_RESERVE_ABOVE_LIMIT = (
        "adjust_reserve_above_limit", "Pode ajustar reservas acima da alçada e zerar a reserva")
    ASSIGN_CLAIM = "assign_claim", "Pode reatribuir sinistros e ver a fila de qualquer analista"
    APPROVE_PROPOSAL = "approve_proposal", "Pode aprovar ou rejeitar propostas acima da alçada"
    EXPORT_FULL_CPF = "export_full_cpf", "Pode exportar a lista de sinistros com o CPF completo"

    @property
    def perm(self) -> str:
        """The name ``User.has_perm`` takes."""
        return f"claims.{self.value}"


# Reading claims and their parts: Django's own ``view_*`` permission of the claim model.
VIEW_CLAIM = "claims.view_claim"


def works_on_claims(user) -> bool:
    """An active analyst or supervisor: someone who can own claims and tasks."""
    return user is not None and user.is_active and user.has_perm(Permission.WORK_CLAIM.perm)
