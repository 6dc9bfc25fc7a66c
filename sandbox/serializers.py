"""The body of ``POST /api/v1/sandbox/sinistros/{numero-sinistro}/simular``: ``acao`` and
what that action takes; every other member is optional and has a default."""

from decimal import Decimal

from rest_framework import serializers

from api_common.serializers import KebabCaseSerializer
from claims.denials import DenialCode
from claims.serializers.payment_details import TaxIdField
from sandbox.services import ACTIONS


class RequestedDocumentSerializer(KebabCaseSerializer):
    tipo = serializers.SlugField(max_length=60, help_text="Tipo do documento (ex.: `laudo-medico`).")
    titulo = serializers.CharField(max_length=200, required=False,
                                   help_text="O nome que o segurado lê (padrão: o tipo).")

    class Meta:
        ref_name = "DocumentoSolicitadoSandbox"


class SimulationSerializer(KebabCaseSerializer):
    acao = serializers.ChoiceField(
        choices=list(ACTIONS), help_text="A ação do fluxo que a seguradora tomaria.")
    motivo = serializers.CharField(
        max_length=2000, required=False,
        help_text="Nota da decisão (`finalizar` sem pagamento, `reabrir`, `manter-recusa`, "
                  "`ajustar-reserva`); padrão: um texto de sandbox.")
    documentos = RequestedDocumentSerializer(
        many=True, required=False,
        help_text="`solicitar-documentos`: o que pedir (padrão: os documentos da cobertura "
                  "e da natureza do sinistro, como a certidão de óbito numa morte; os já "
                  "pendentes não são pedidos de novo).")
    valor = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=Decimal("0.01"), required=False,
        help_text="`ajustar-reserva`: a nova reserva (obrigatório). `registrar-pagamento`: o "
                  "valor (padrão: o que falta da participação do beneficiário).")
    cpf_ou_cnpj = TaxIdField(
        required=False,
        help_text="`registrar-pagamento`: de quem é a participação paga, com ou sem pontuação "
                  "(padrão: o credor, depois o primeiro beneficiário com algo a receber e "
                  "dados de pagamento).")
    id_transacao_financeira = serializers.CharField(
        max_length=100, required=False,
        help_text="`liquidar-pagamento`: padrão `SANDBOX-` e 12 caracteres aleatórios.")
    data_pagamento = serializers.DateField(
        required=False, help_text="`liquidar-pagamento`: padrão, hoje.")
    codigo = serializers.ChoiceField(
        choices=DenialCode.choices, required=False,
        help_text="`recusar`: o motivo (código SUSEP; obrigatório).")
    descricao = serializers.CharField(
        max_length=2000, required=False,
        help_text="`recusar`: o texto para o segurado (padrão: um texto de sandbox).")
    clausula = serializers.CharField(
        max_length=200, required=False,
        help_text="`recusar`: a cláusula da apólice (padrão: `Cláusula de exemplo`).")

    class Meta:
        ref_name = "SimulacaoSandbox"

    def validate(self, data):
        action = data["acao"]
        if action == "ajustar-reserva" and "valor" not in data:
            raise serializers.ValidationError({"valor": "Informe a nova reserva."})
        if action == "recusar" and "codigo" not in data:
            raise serializers.ValidationError({"codigo": "Informe o motivo da recusa."})
        return data
