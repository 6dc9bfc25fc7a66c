"""OpenAPI description of the channel token (loaded by ``ClaimsConfig.ready``)."""

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ChannelTokenScheme(OpenApiAuthenticationExtension):
    target_class = "claims.authentication.ChannelTokenAuthentication"
    name = "oauth2"

    def get_security_definition(self, auto_schema):
        return {
            "type": "oauth2",
            "description": "OAuth 2.0 client credentials; token válido por 12 horas, reutilize-o.",
            "flows": {
                "clientCredentials": {
                    "tokenUrl": f"{settings.AUTH_URL}/oauth/token",
                    "scopes": {"claims": "Sinistros do canal"},
                }
            },
        }

    def get_security_requirement(self, auto_schema):
        return {self.name: ["claims"]}
