"""Every problem id the service can answer, in one place (RFC 9457 §3.1.1 problem types).

The page each ``type`` URL opens (``/api/v1/problemas/<id>``), the ids the error plumbing
picks for a bare HTTP status, and docs/problems.md are all checked against this registry
(tests/api_common/test_problem_types.py), so none of them can drift from the code: a new
``problem_id`` anywhere needs an entry here first.
"""

from dataclasses import dataclass

# Who meets the problem: sections of the index page and of docs/problems.md.
API = "API dos canais"
UPLOAD = "Envio de arquivos (url-envio) e notificações do armazenamento"
ANALYSTS = "Ações dos analistas (admin)"
OPERATIONS = "Operação (comandos)"


@dataclass(frozen=True)
class ProblemType:
    id: str
    status: int
    title: str
    cause: str  # what makes the service answer it
    action: str  # what the caller should do about it
    group: str = API
    members: str = ""  # members beyond the standard ones, if any


_TYPES = [
    # --- requests the service cannot read -------------------------------------------------
    ProblemType(
        "invalid-request", 400, "Requisição inválida",
        "Um ou mais campos estão ausentes ou inválidos: obrigatórios faltando, formatos "
        "(datas, CPF/CNPJ, chaves PIX...), valores fora do aceito, texto com caractere nulo "
        "(U+0000) ou escape \\ud800 sem par, números como 1e400 ou NaN; também parâmetros de "
        "consulta inválidos.",
        "Corrija cada campo listado em campos-invalidos (campo e mensagem) e reenvie. "
        "Repetir sem corrigir dá o mesmo resultado.",
        members="campos-invalidos: lista de {campo, mensagem}",
    ),
    ProblemType(
        "malformed-request", 400, "Corpo da requisição malformado",
        "O corpo não é JSON válido, não está em UTF-8, ou passa do limite de aninhamento "
        "de objetos e listas.",
        "Envie um único objeto JSON bem formado, em UTF-8, com Content-Type: application/json.",
    ),
    ProblemType(
        "bad-request", 400, "Requisição recusada",
        "A requisição foi recusada antes de chegar ao recurso: cabeçalho Host não aceito, "
        "cabeçalhos malformados ou outro erro de protocolo (também usado, com o status "
        "recebido, para outros erros 4xx sem identificador próprio).",
        "Confira o endereço base (host) configurado e os cabeçalhos enviados.",
    ),
    ProblemType(
        "request-body-too-large", 413, "Corpo da requisição grande demais",
        "O corpo passa de DATA_UPLOAD_MAX_MEMORY_SIZE (2,5 MB por padrão). Arquivos não "
        "vão no corpo da API: vão para url-envio.",
        "Reduza o corpo; para documentos, use enviar-documento e envie o arquivo por PUT "
        "em url-envio.",
    ),
    ProblemType(
        "unauthorized", 401, "Autenticação necessária",
        "Token de acesso ausente, malformado, desconhecido, revogado ou expirado, ou canal "
        "desativado (WWW-Authenticate diz qual).",
        "Peça um token em POST /oauth/token e envie-o em Authorization: Bearer <token>. "
        "Reutilize o token enquanto for válido (12 horas).",
    ),
    ProblemType(
        "forbidden", 403, "Acesso negado",
        "O canal autenticou, mas a API de sinistros não está habilitada para ele; no admin, "
        "o perfil do usuário não permite a ação.",
        "Peça à seguradora a habilitação da API para o canal (ou, no admin, a um supervisor).",
    ),
    ProblemType(
        "not-found", 404, "Recurso não encontrado",
        "Nenhum recurso neste endereço (também um id malformado no caminho, como id-venda "
        "que não é UUID, ou um caminho com caractere nulo).",
        "Confira o caminho e o método na documentação da API (/api/v1/docs/).",
    ),
    ProblemType(
        "method-not-allowed", 405, "Método não permitido",
        "O endereço existe, mas não aceita este método HTTP.",
        "Use um dos métodos listados no cabeçalho Allow.",
    ),
    ProblemType(
        "not-acceptable", 406, "Formato de resposta não suportado",
        "O cabeçalho Accept não aceita JSON.",
        "Envie Accept: application/json (ou omita o cabeçalho).",
    ),
    ProblemType(
        "unsupported-media-type", 415, "Tipo de conteúdo não suportado",
        "O corpo não foi enviado como application/json, ou o Content-Type nomeia um "
        "charset que o serviço não lê (um codec que não é de texto, como rot13 ou hex; "
        "em formulários, qualquer um além de UTF-8).",
        "Envie o corpo em JSON, em UTF-8, com Content-Type: application/json.",
    ),
    ProblemType(
        "invalid-client", 401, "Cliente não autenticado",
        "Em /oauth/token: client_id ou client_secret incorretos, credenciais ausentes, "
        "cabeçalho Authorization que não é Basic válido, ou canal desativado.",
        "Confira as credenciais do canal (mostradas uma única vez por create_channel). "
        "Tentativas falhas demais levam a too-many-failed-token-requests.",
        members="error, error_description (RFC 6749 §5.2)",
    ),
    ProblemType(
        "unauthorized-client", 400, "Concessão não permitida",
        "Em /oauth/token: o cliente pediu uma concessão diferente de client_credentials.",
        "Use grant_type=client_credentials.",
        members="error, error_description (RFC 6749 §5.2)",
    ),
    ProblemType(
        "unsupported-grant-type", 400, "Tipo de concessão não suportado",
        "Em /oauth/token: grant_type desconhecido.",
        "Use grant_type=client_credentials.",
        members="error, error_description (RFC 6749 §5.2)",
    ),
    ProblemType(
        "invalid-grant", 400, "Concessão inválida",
        "Em /oauth/token: a concessão informada não é válida.",
        "Use grant_type=client_credentials com as credenciais do canal.",
        members="error, error_description (RFC 6749 §5.2)",
    ),
    ProblemType(
        "invalid-scope", 400, "Escopo inválido",
        "Em /oauth/token: escopo diferente de claims.",
        "Peça o escopo claims ou nenhum.",
        members="error, error_description (RFC 6749 §5.2)",
    ),
    ProblemType(
        "too-many-failed-token-requests", 429, "Muitas tentativas de autenticação falharam",
        "Falhas de autenticação demais em /oauth/token para este client_id a partir deste "
        "endereço (TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS) ou deste endereço "
        "(TOKEN_FAILURE_LIMIT_PER_ADDRESS) na janela; recusado antes de qualquer "
        "verificação do segredo.",
        "Confira client_id e client_secret e tente de novo depois de Retry-After segundos. "
        "Os tokens já emitidos continuam valendo.",
    ),
    ProblemType(
        "document-not-found", 404, "Documento não encontrado",
        "Nenhum arquivo recebido com esse id neste sinistro para o canal (desconhecido, "
        "ainda não recebido, rejeitado, de outro sinistro ou de outro canal).",
        "Use um id de documentos-recebidos[].arquivos[] da consulta do sinistro.",
    ),
    ProblemType(
        "sale-cancellation-insurance-has-open-claims", 422, "Venda com sinistros em aberto",
        "Cancelamento (status cancelada) de uma venda que tem sinistros em aberto.",
        "Conclua ou encerre os sinistros da venda antes de cancelá-la.",
        group=OPERATIONS,
    ),
    ProblemType(
        "too-many-token-requests", 429, "Limite de emissão de tokens excedido",
        "O cliente pediu mais de TOKEN_RATE_LIMIT tokens na janela.",
        "Reutilize o token enquanto for válido; tente de novo depois de Retry-After segundos.",
    ),
    ProblemType(
        "too-many-requests", 429, "Limite de requisições excedido",
        "Chamadas demais em pouco tempo.",
        "Espere Retry-After segundos e diminua o ritmo das chamadas.",
    ),
    ProblemType(
        "internal-error", 500, "Erro interno",
        "Um erro inesperado do serviço (também usado, com o status recebido, para outros "
        "erros 5xx). Nenhum detalhe interno é mostrado.",
        "Tente de novo mais tarde. Se persistir, informe ao suporte o endereço em instance: "
        "ele identifica a ocorrência no registro do serviço.",
    ),
    # --- resources of the channel ---------------------------------------------------------
    ProblemType(
        "sale-not-found", 404, "Venda não encontrada",
        "Nenhuma venda com este id-venda para o canal (a de outro canal responde igual).",
        "Confira o id-venda (liste as vendas do canal em GET /api/v1/vendas).",
    ),
    ProblemType(
        "claim-not-found", 404, "Sinistro não encontrado",
        "Nenhum sinistro com este numero-sinistro para o canal (o de outro canal responde igual).",
        "Use o numero-sinistro devolvido na abertura do sinistro.",
    ),
    ProblemType(
        "webhook-not-found", 404, "Webhook não encontrado",
        "Nenhuma assinatura com este id-webhook para o canal.",
        "Liste as assinaturas em GET /api/v1/webhooks e use um id-webhook de lá.",
    ),
    ProblemType(
        "delivery-not-found", 404, "Entrega não encontrada",
        "Nenhuma entrega com este id-entrega neste webhook.",
        "Liste as entregas do webhook e use um id-entrega de lá.",
    ),
    ProblemType(
        "idempotency-key-reused", 422, "Chave de idempotência já usada em outro pedido",
        "A Idempotency-Key já foi usada, nas últimas 24 horas, com outro caminho ou outro "
        "corpo (só a mesma operação repete a primeira resposta).",
        "Use uma chave nova para cada operação; repita a mesma chave só para repetir o "
        "mesmo pedido.",
    ),
    # --- business rules -------------------------------------------------------------------
    ProblemType(
        "claim-already-opened-for-coverage", 422, "Sinistro já aberto para a cobertura",
        "Já existe um sinistro em aberto (qualquer status exceto finalizado, recusado e "
        "abertura-rejeitada) para esta cobertura.",
        "Acompanhe o sinistro aberto, cujo número vem em numero-sinistro.",
        members="numero-sinistro: o sinistro em aberto",
    ),
    ProblemType(
        "insurance-lmg-exhausted", 422, "LMG esgotado",
        "Nada resta do limite máximo de garantia (LMG) da apólice.",
        "Não há valor a indenizar nesta apólice; fale com a seguradora se discordar.",
    ),
    ProblemType(
        "coverage-lmi-exhausted", 422, "LMI esgotado",
        "Nada resta do limite máximo de indenização (LMI) da cobertura.",
        "Não há valor a indenizar nesta cobertura; fale com a seguradora se discordar.",
    ),
    ProblemType(
        "sale-not-active", 422, "Venda não ativa",
        "A venda está cancelada (abertura de sinistro, geração de link whitelabel).",
        "Só vendas ativas aceitam sinistros e links.",
    ),
    ProblemType(
        "coverage-not-active", 422, "Cobertura não ativa",
        "cobertura não é uma cobertura da venda, ou está inativa.",
        "Use uma das coberturas ativas listadas na venda (GET /api/v1/vendas/{id-venda}).",
    ),
    ProblemType(
        "occurrence-outside-validity", 422, "Ocorrência fora da vigência",
        "data-ocorrencia cai fora de inicio-vigencia..fim-vigencia da venda.",
        "Confira a data da ocorrência; eventos fora da vigência não são cobertos.",
    ),
    ProblemType(
        "claim-not-accepting-documents", 422, "Sinistro não recebe documentos",
        "enviar-documento em um sinistro finalizado ou recusado.",
        "Sinistros encerrados não recebem documentos; se preciso, peça a reabertura à seguradora.",
    ),
    ProblemType(
        "claim-closed", 422, "Sinistro encerrado",
        "O saldo devedor de um sinistro finalizado ou recusado não muda.",
        "Nada a fazer: o sinistro está encerrado.",
    ),
    ProblemType(
        "transition-not-allowed", 422, "Mudança de status não permitida",
        "A ação não é permitida no status atual do sinistro.",
        "Consulte o sinistro e faça só o que o status atual permite (a tabela do fluxo "
        "está em docs/decisions.md).",
    ),
    ProblemType(
        "payment-not-awaiting-details", 422, "Sinistro não aguarda dados de pagamento",
        "detalhes-pagamento enviados com o sinistro fora de pendente-de-dados-de-pagamento.",
        "Envie os dados só depois do evento sinistro-pendente-de-dados-de-pagamento.",
    ),
    ProblemType(
        "webhook-not-active", 422, "Webhook desativado",
        "ping ou reenviar em um webhook com ativo: false.",
        "Reative o webhook (PATCH com ativo: true) antes de pedir entregas.",
    ),
    # --- the upload URL and storage notifications ----------------------------------------
    ProblemType(
        "upload-link-invalid", 403, "Link de envio inválido",
        "O url-envio foi alterado ou não aponta para nenhum arquivo.",
        "Use o url-envio exatamente como foi devolvido; se perdeu, peça outro em enviar-documento.",
        group=UPLOAD,
    ),
    ProblemType(
        "upload-link-expired", 403, "Link de envio expirado",
        "O url-envio passou da validade (UPLOAD_URL_EXPIRE_SECONDS, 15 minutos por padrão).",
        "Peça um novo url-envio em enviar-documento e envie logo.",
        group=UPLOAD,
    ),
    ProblemType(
        "upload-already-received", 409, "Link de envio já utilizado",
        "O url-envio já recebeu um arquivo: cada link vale uma vez.",
        "Para outro arquivo, peça um novo link em enviar-documento.",
        group=UPLOAD,
    ),
    ProblemType(
        "upload-too-large", 413, "Arquivo grande demais",
        "O arquivo passa de UPLOAD_MAX_BYTES; o arquivo é rejeitado.",
        "Reduza o arquivo (ou digitalize em resolução menor) e envie por um novo link.",
        group=UPLOAD,
    ),
    ProblemType(
        "upload-content-type-mismatch", 415, "Content-Type diferente do esperado",
        "O Content-Type do PUT não é o tipo-de-conteudo devolvido com o link.",
        "Envie o PUT com Content-Type igual a tipo-de-conteudo.",
        group=UPLOAD,
    ),
    ProblemType(
        "upload-rejected", 422, "Arquivo rejeitado",
        "O arquivo chegou mas não passou na conferência (vazio, ou conteúdo que não é do tipo "
        "declarado); detail diz por quê.",
        "Envie o arquivo certo por um novo link.",
        group=UPLOAD,
    ),
    # --- analysts' moves in the admin -----------------------------------------------------
    ProblemType(
        "claim-changed-concurrently", 409, "Sinistro alterado por outra pessoa",
        "O formulário foi aberto numa versão anterior do sinistro: alguém agiu nesse meio tempo.",
        "Recarregue o sinistro, confira o que mudou e refaça a ação se ainda couber.",
        group=ANALYSTS,
    ),
    ProblemType(
        "reserve-out-of-bounds", 422, "Reserva fora dos limites",
        "Reserva acima do que resta de LMI/LMG, ou abaixo do que já foi pago.",
        "Informe um valor entre o já pago e o disponível.",
        group=ANALYSTS,
    ),
    ProblemType(
        "payment-not-allowed", 422, "Pagamento não permitido",
        "Pagamento acima de valor-restante, fora de ordem num prestamista (credor primeiro, "
        "até o saldo), liquidação fora de registro..hoje, ou transação já usada.",
        "Ajuste valor, beneficiário, data ou transação conforme detail.",
        group=ANALYSTS,
    ),
    ProblemType(
        "payment-already-settled", 422, "Pagamento já liquidado",
        "O pagamento já foi liquidado por outra transação.",
        "Nada a fazer: confira a liquidação existente.",
        group=ANALYSTS,
    ),
    ProblemType(
        "finalization-not-allowed", 422, "Finalização não permitida",
        "Há pagamentos não liquidados, ou nenhum pagamento e nenhum motivo.",
        "Liquide os pagamentos, ou informe o motivo de finalizar sem pagamento.",
        group=ANALYSTS,
    ),
    ProblemType(
        "denial-not-allowed", 422, "Recusa não permitida",
        "Sem motivo, com data futura, ou com pagamentos já registrados.",
        "Informe o motivo e uma data até hoje; com pagamentos, a recusa não cabe.",
        group=ANALYSTS,
    ),
    ProblemType(
        "reopening-not-allowed", 422, "Reabertura não permitida",
        "Sem motivo, com outro sinistro aberto na cobertura, ou sem saldo de LMI/LMG.",
        "Informe o motivo; encerre antes o outro sinistro da cobertura.",
        group=ANALYSTS,
    ),
    ProblemType(
        "document-request-empty", 422, "Nada a solicitar",
        "Pedido de documentos sem nenhum tipo nem arquivo a substituir.",
        "Escolha ao menos um documento a solicitar ou um arquivo a substituir.",
        group=ANALYSTS,
    ),
    ProblemType(
        "assignment-not-allowed", 422, "Atribuição não permitida",
        "Assumir um sinistro já assumido, encerrado ou de outra equipe; reatribuir sem motivo "
        "ou para quem não trabalha sinistros.",
        "Recarregue o sinistro; informe o motivo e um analista ativo.",
        group=ANALYSTS,
    ),
    ProblemType(
        "note-not-allowed", 422, "Nota não registrada",
        "Nota interna vazia ou longa demais.",
        "Escreva a nota (até 5.000 caracteres); notas não se editam: uma nova corrige.",
        group=ANALYSTS,
    ),
    ProblemType(
        "task-not-allowed", 422, "Tarefa não permitida",
        "Tarefa sem assunto, com vencimento no passado, para quem não trabalha sinistros, "
        "ou já concluída ou cancelada.",
        "Confira assunto, vencimento e responsável; recarregue a lista de tarefas.",
        group=ANALYSTS,
    ),
    ProblemType(
        "proposal-not-allowed", 422, "Proposta não permitida",
        "Já há uma proposta aguardando o supervisor, a proposta já foi decidida, ou quem "
        "aprova é quem propôs.",
        "Aguarde a decisão da proposta pendente; outro supervisor aprova.",
        group=ANALYSTS,
    ),
    ProblemType(
        "proposal-stale", 409, "Proposta obsoleta",
        "O sinistro mudou depois da proposta (a versão que o analista viu não é mais a atual).",
        "O analista revisa o sinistro e propõe de novo, se ainda couber.",
        group=ANALYSTS,
    ),
    # --- operations -----------------------------------------------------------------------
    ProblemType(
        "sale-of-another-channel", 409, "Venda de outro canal",
        "import_vendas recebeu um id-venda que já pertence a outro canal.",
        "Confira o canal e o arquivo importado; um id-venda pertence a um só canal.",
        group=OPERATIONS,
    ),
    ProblemType(
        "upload-length-required", 411, "Content-Length obrigatório",
        "PUT em url-envio sem Content-Length (ou com Transfer-Encoding, como chunked).",
        "Envie o arquivo inteiro com Content-Length; o link continua válido.",
        group=UPLOAD,
    ),
    ProblemType(
        "upload-notification-not-queued", 503, "Notificação não enfileirada",
        "A notificação de arquivo criado chegou, mas a fila de tarefas não respondeu: "
        "nada foi registrado.",
        "Reenvie a notificação mais tarde (o armazenamento reenvia sozinho as que não "
        "receberam 2xx).",
        group=UPLOAD,
    ),
    ProblemType(
        "download-link-invalid", 403, "Link de download inválido",
        "Link de download local expirado, alterado ou de arquivo que não está mais recebido.",
        "Peça um novo link em GET /api/v1/sinistros/{numero-sinistro}/documentos/{id}.",
        group=UPLOAD,
    ),
]

PROBLEM_TYPES: dict[str, ProblemType] = {problem.id: problem for problem in _TYPES}
GROUPS = [API, UPLOAD, ANALYSTS, OPERATIONS]

# The id for a bare HTTP status answered by Django or a library (a 405 of a plain view, a
# technical 404, a refused Host...), when nothing more specific was raised.
_ID_FOR_STATUS = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    413: "request-body-too-large",
    415: "unsupported-media-type",
    429: "too-many-requests",
    500: "internal-error",
}


def problem_type_for_status(status: int) -> ProblemType:
    problem_id = _ID_FOR_STATUS.get(status) or ("internal-error" if status >= 500 else "bad-request")
    return PROBLEM_TYPES[problem_id]


def title_of(problem_id: str) -> str:
    return PROBLEM_TYPES[problem_id].title
