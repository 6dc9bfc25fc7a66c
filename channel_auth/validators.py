"""django-oauth-toolkit's request validator, with the channel's rules."""

from oauth2_provider.oauth2_validators import OAuth2Validator

from claims.models import Channel


class ChannelOAuth2Validator(OAuth2Validator):
    """A client authenticates only while its channel exists and is active: the token
    endpoint answers 401 ``invalid_client`` otherwise (the API refuses the tokens such a
    channel already holds, see ``channel_auth.authentication``)."""

    def authenticate_client(self, request, *args, **kwargs):
        if not super().authenticate_client(request, *args, **kwargs):
            return False
        return Channel.objects.filter(application_id=request.client.pk, is_active=True).exists()
