"""Hands the token request, already read by ``token_request``, to oauthlib."""

from oauth2_provider.oauth2_backends import OAuthLibCore


class CheckedTokenRequestCore(OAuthLibCore):
    """The library gets the parameters the endpoint read and checked, never the raw
    body a second time; the endpoint reads JSON (the contract) and form bodies
    (RFC 6749) alike. django-oauth-toolkit's own JSON backend is deprecated."""

    def extract_body(self, request):
        return getattr(request, "token_params", [])
