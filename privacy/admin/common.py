"""What privacy's pages share: the role checks, who acted in words, targets in words."""

from django.contrib.auth import get_user_model

from claims.formatting import actor_label, person, tax_id
from workbench.admin.base import NoWrites

VIEW_HOLDS = "privacy.view_legalhold"
PLACE_HOLD = "privacy.place_hold"
RELEASE_HOLD = "privacy.release_hold"


class PrivacyReads(NoWrites):
    """The privacy role (and superusers) read; nobody adds, changes or deletes."""

    def has_module_permission(self, request):
        return request.user.has_module_perms("privacy")


def can(user, perm: str) -> bool:
    return user.is_active and user.is_staff and user.has_perm(perm)


def actors_in_words(actors) -> dict[str, str]:
    """{"usuario:dora": "Dora Lima", "operacao:ops": "Operação (ops)"}: users' full
    names in one query, whatever the number of actors."""
    actors = {actor for actor in actors if actor}
    usernames = {actor.partition(":")[2] for actor in actors if actor.startswith("usuario:")}
    users = {user.get_username(): user for user in
             get_user_model().objects.filter(username__in=usernames)} if usernames else {}
    words = {}
    for actor in actors:
        kind, _, name = actor.partition(":")
        words[actor] = (person(users[name]) if kind == "usuario" and name in users
                        else actor_label(actor))
    return words


def target_words(hold) -> str:
    """What the hold keeps, in words (its claim and sale loaded)."""
    if hold.claim_id:
        return f"Sinistro {hold.claim.number}"
    if hold.sale_id:
        return f"Venda {hold.sale_id} ({hold.sale.insured_name})"
    return f"CPF {tax_id(hold.cpf)}"
