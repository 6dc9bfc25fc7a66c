"""The OAuth 2.0 token endpoint (client credentials) on django-oauth-toolkit.

``token_request`` reads a token request once, strictly, before the library or any
hashing sees it; ``views`` limits failures and issuance; ``validators`` refuses
deactivated channels; ``hashers`` stores channel secrets with a hash fit for random
secrets; ``backends`` hands the already-read parameters to the library.
"""
