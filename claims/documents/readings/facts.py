"""Placeholder: what the machine read in a claim's documents, as facts for the rules."""

KEYS = ("documentos_lidos", "documentos_integros", "leitura_incerta", "arquivo_repetido",
        "certidao_confere", "certidao_cpf_confere", "certidao_nome_confere",
        "certidao_matricula_valida", "certidao_data_diverge_dias", "rescisao_confere",
        "rescisao_data_diverge_dias")


def reading_facts(claim) -> dict:
    facts = dict.fromkeys(KEYS)
    facts.update(documentos_lidos=True, documentos_integros=True, leitura_incerta=False,
                 arquivo_repetido=False, leituras=[])
    return facts
