"""Start-up checks of what every letter prints about the insurer."""

from django.conf import settings
from django.core import checks
from stdnum.br import cnpj


@checks.register()
def insurer_cnpj(app_configs=None, **kwargs):
    """A CNPJ with wrong check digits at the foot of every letter would be a typo sent
    to thousands of families: refuse to start with it."""
    if cnpj.is_valid(settings.INSURER_CNPJ):
        return []
    return [checks.Error(
        f"INSURER_CNPJ ({settings.INSURER_CNPJ!r}) não é um CNPJ válido.",
        hint="Informe o CNPJ da seguradora (14 dígitos, com ou sem pontuação).",
        id="correspondence.E001")]
