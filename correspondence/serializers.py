from rest_framework import serializers

from api_common.serializers import KebabCaseSerializer, UTCDateTimeField
from correspondence.models import PRIVATE_LETTERS, Letter, Message, Role


class RecipientSerializer(KebabCaseSerializer):
    nome = serializers.CharField(source="recipient_name")
    email = serializers.CharField(source="recipient_email", allow_blank=True)
    papel = serializers.ChoiceField(choices=Role.choices, source="role",
                                    help_text="`contato` (pessoa para contato) ou `beneficiario`.")


class LetterSerializer(KebabCaseSerializer):
    id = serializers.UUIDField()
    # The channel never lists a private letter: its schema does not name one either.
    carta = serializers.ChoiceField(
        choices=[(value, label) for value, label in Letter.choices
                 if value not in PRIVATE_LETTERS], source="letter")
    titulo = serializers.CharField(source="get_letter_display")
    destinatario = RecipientSerializer(source="*")
    assunto = serializers.CharField(source="subject")
    texto = serializers.CharField(
        source="body_text",
        help_text="A carta em texto simples (o link pessoal do segurado nunca vem aqui).")
    status = serializers.ChoiceField(
        choices=Message.Status.choices,
        help_text="`com-o-canal`: o canal comunica o segurado e nada foi enviado por e-mail.")
    criada_em = UTCDateTimeField(source="created_at")
    enviada_em = UTCDateTimeField(source="sent_at", allow_null=True)
    entregue_em = UTCDateTimeField(source="delivered_at", allow_null=True)
    lida_em = UTCDateTimeField(
        source="read_at", allow_null=True,
        help_text="Primeira vez que a pessoa abriu a carta nas páginas do segurado.")
    url_pdf = serializers.URLField(
        source="pdf_url",
        help_text="A carta em PDF: link temporário, sem o cabeçalho `Authorization`.")
    url_pdf_expira_em = UTCDateTimeField(source="pdf_url_expires_at")


class LetterListSerializer(KebabCaseSerializer):
    cartas = LetterSerializer(many=True)
