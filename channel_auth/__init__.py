"""The channels' credentials and API authentication: the OAuth 2.0 token endpoint (client
credentials) on django-oauth-toolkit, and the bearer tokens of /api/v1.

``token_request`` reads a token request once, strictly, before the library or any
hashing sees it; ``views`` limits failures and issuance; ``validators`` refuses
deactivated channels; ``hashers`` stores channel secrets with a hash fit for random
secrets; ``backends`` hands the already-read parameters to the library; ``errors`` holds
the endpoint's problems and ``schema`` its OpenAPI description. ``authentication`` maps a
bearer token to its channel for DRF (``IsChannel``: the channel's claims API is enabled).

Above ``claims`` in the import layers (it reads ``claims.models.Channel`` and re-stores
secrets through ``claims.services.channels``): claims never imports it; the settings name
its classes, and ``config.urls`` routes ``/oauth/token`` to its view.
"""
