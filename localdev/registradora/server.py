"""A local registradora: an HTTP server that answers like B3's "Registro de Sinistro – V3".

Development (``make run``) and the tests need somewhere to send claims that refuses what B3
would refuse: bodies outside the published layout, a claim registered twice, changes out of
order. Only the standard library (no Django), so any process can start one; tests read what it
received and accepted, and make it fail or stall on purpose.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import logging
import re
import secrets
import select
import signal
import socket
import threading
import time
from collections import deque
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote_plus, urlsplit

from localdev.registradora import schema

log = logging.getLogger("localdev.registradora")

TOKEN_PATH = "/api/oauth/token"
CLAIM_PATHS = {"/api/sinistros/v3/registro": "RegistroReqPost",
               "/api/sinistros/v3/alteracao": "AlteracaoReqPost"}
# The layout's overview: "Para envio a APIs em Lotes iremos receber arquivos de até 10MB."
MAX_BODY = 10 * 1024 * 1024
_SEQUENCE = re.compile(r"^[0-9]+$")
_TITLES = {400: "Requisição inválida", 401: "Não autorizado", 404: "Recurso não encontrado",
           405: "Método não permitido", 413: "Lote maior que 10MB", 422: "Lote recusado",
           429: "Muitas requisições", 500: "Erro interno", 503: "Serviço indisponível"}
_DETAILS = {400: "O corpo não é JSON válido.", 401: "Token de acesso ausente, inválido ou "
            "expirado.", 413: "Content-Length inválido ou acima de 10MB."}
Answer = tuple[int, dict, dict[str, str]]  # status, JSON body, extra headers


def erro(status: int, detalhe: str, titulo: str | None = None) -> dict:
    """One item of B3's ``erros`` list, cut to the layout's lengths (10, 100, 2000)."""
    titulo = titulo or _TITLES.get(status) or HTTPStatus(status).phrase
    return {"codigo": f"SIN-{status}"[:10], "titulo": titulo[:100], "detalhe": detalhe[:2000]}


class LocalRegistradora:
    """The server and what it has seen. Each request runs in its own thread, so the state
    below is read and written under one lock."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, client_id: str = "sro-local",
                 client_secret: str = "sro-local-secret", token_ttl: int = 3600) -> None:
        self.host, self.port = host, port
        self.client_id, self.client_secret, self.token_ttl = client_id, client_secret, token_ttl
        self.received: list[dict[str, Any]] = []  # every POST to the two claim paths
        self.registered: dict[str, dict[str, Any]] = {}  # codigo_sinistro -> registro, alteracoes
        self.tokens_issued = 0
        self._tokens: dict[str, float] = {}  # access token -> time.monotonic() it expires at
        self._faults: deque[int] = deque()
        self._stalls: deque[float] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- Lifecycle ---------------------------------------------------------------------------
    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the registradora is not started")
        return f"http://{self.host}:{self.port}"

    @property
    def token_url(self) -> str:
        return self.url + TOKEN_PATH

    def start(self) -> LocalRegistradora:
        self._stopping.clear()
        self._httpd = ThreadingHTTPServer((self.host, self.port), _Handler)
        self._httpd.daemon_threads = True  # a stalled request must not hold the process
        self._httpd.registradora = self  # type: ignore[attr-defined]
        self.port = self._httpd.server_address[1]
        # A short poll interval: stop(), every test's teardown, waits up to that long.
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,),
                                        daemon=True, name=f"registradora-{self.port}")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes stalled requests, which then accept nothing
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join()
            self._httpd = self._thread = None

    def __enter__(self) -> LocalRegistradora:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def serve_forever(self) -> None:
        """Serve until Ctrl-C (or until ``stop`` is called from elsewhere)."""
        if self._httpd is None:
            self.start()
        try:
            while not self._stopping.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        self.stop()

    # --- Tokens and faults ----------------------------------------------------------------------
    def token_answer(self, form: dict[str, list[str]], basic: tuple[str, str] | None) -> Answer:
        """RFC 6749 §4.4 (client credentials): the client authenticates by HTTP Basic or
        with form fields (§2.3.1); errors as in §5.2. No token is issued for a bad grant."""
        client_id, secret = basic or ((form.get("client_id") or [""])[0],
                                      (form.get("client_secret") or [""])[0])
        if not (secrets.compare_digest(client_id.encode(), self.client_id.encode())
                and secrets.compare_digest(secret.encode(), self.client_secret.encode())):
            return 401, {"error": "invalid_client"}, {"WWW-Authenticate": 'Basic realm="sro"'}
        grant = (form.get("grant_type") or [""])[0]
        if grant != "client_credentials":
            return 400, {"error": "unsupported_grant_type" if grant else "invalid_request"}, {}
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._tokens[token] = time.monotonic() + self.token_ttl
            self.tokens_issued += 1
        return 200, {"access_token": token, "token_type": "Bearer",
                     "expires_in": self.token_ttl}, {"Cache-Control": "no-store"}

    def token_valid(self, token: str) -> bool:
        with self._lock:
            return self._tokens.get(token, 0.0) > time.monotonic()

    def expire_tokens(self) -> None:
        """Every token issued so far stops working: the client's next call gets 401."""
        with self._lock:
            self._tokens.clear()

    def fail_next(self, status: int, times: int = 1) -> None:
        """The next ``times`` claim requests answer ``status`` and accept nothing."""
        with self._lock:
            self._faults.extend([status] * times)

    def stall_next(self, seconds: float, times: int = 1) -> None:
        """The next ``times`` claim requests wait ``seconds`` before being processed."""
        with self._lock:
            self._stalls.extend([seconds] * times)

    def stalls_left(self) -> int:
        """Stalls asked for that no request has taken yet (0: the last one is being held)."""
        with self._lock:
            return len(self._stalls)

    def _take(self, queue: deque) -> Any:
        with self._lock:
            return queue.popleft() if queue else None

    def _record(self, path: str, body: Any, status: int | None, lote: str | None = None) -> None:
        # The caller holds the lock.
        self.received.append({"path": path, "body": body, "status": status,
                              "identificador_lote": lote})

    # --- Batches -------------------------------------------------------------------------------
    def answer(self, path: str, body: Any, parsed: bool, authorization: str) -> Answer:
        """What a claim request gets: an injected fault, 401 without a valid bearer token,
        400 for a body that is not JSON, else the batch's verdict."""
        status = self._take(self._faults)
        scheme, _, token = authorization.partition(" ")
        if status is None and (scheme.lower() != "bearer" or not self.token_valid(token.strip())):
            status = 401
        elif status is None and not parsed:
            status = 400
        if status is None:
            return self.process(path, body)
        with self._lock:
            self._record(path, body, status)
        headers = {429: {"Retry-After": "1"},
                   401: {"WWW-Authenticate": 'Bearer error="invalid_token"'}}.get(status, {})
        detail = _DETAILS.get(status, "Falha simulada pela registradora local (fail_next).")
        return status, {"erros": [erro(status, detail)]}, headers

    def process(self, path: str, body: Any) -> Answer:
        """Validate a batch and, if every item passes, accept all of it under one batch id."""
        model = CLAIM_PATHS[path]
        found = schema.problems(model, body)  # pure: no need to hold the lock
        data = body.get("data") if isinstance(body, dict) else None
        items = data.get(schema.ITEMS_KEY[model]) if isinstance(data, dict) else None
        items = items if isinstance(items, list) else []
        with self._lock:  # check and accept at once: two batches cannot both register a claim
            found += self._history_problems(model, items)
            if found:
                self._record(path, body, 422)
                return 422, {"erros": [self._erro(problem, items) for problem in found]}, {}
            lote = secrets.token_hex(12)  # 24 characters, the layout's maximum
            for item in items:
                if model == "RegistroReqPost":
                    self.registered[item["codigo_sinistro"]] = {"registro": item, "alteracoes": []}
                else:
                    self.registered[item["codigo_sinistro"]]["alteracoes"].append(item)
            self._record(path, body, 201, lote)
        return 201, {"data": {"identificador_lote": lote}}, {}

    @staticmethod
    def _erro(problem: schema.Problem, items: list) -> dict:
        if problem.item is None:
            return erro(422, str(problem), "Lote fora do layout")
        item = items[problem.item] if problem.item < len(items) else None
        code = item.get("codigo_sinistro") if isinstance(item, dict) else None
        name = code if isinstance(code, str) else json.dumps(code, ensure_ascii=False)
        return erro(422, f"Item {problem.item} (codigo_sinistro {name}): {problem}",
                    "Sinistro recusado")

    def _history_problems(self, model: str, items: list) -> list[schema.Problem]:
        """No second registro of a claim (per insurer), no alteracao before the registro, and
        ``alteracao_sinistro_codigo`` ("numeração sequencial… destinado a ordenar as
        alterações") a decimal integer above the claim's last one, within the batch too."""
        key, found, seen, last = schema.ITEMS_KEY[model], [], set(), {}
        for i, item in enumerate(items):
            code = item.get("codigo_sinistro") if isinstance(item, dict) else None
            if not isinstance(code, str):
                continue  # the schema already said so
            where, insurer = f"{key}[{i}].codigo_sinistro", item.get("codigo_seguradora")
            known = self.registered.get(code)
            mine = known is not None and known["registro"].get("codigo_seguradora") == insurer
            if model == "RegistroReqPost":
                if known is not None:
                    whose = f"pela seguradora {insurer}" if mine else "por outra seguradora"
                    found.append(schema.Problem(i, where, f"sinistro já registrado {whose}"))
                elif code in seen:
                    found.append(schema.Problem(i, where, "sinistro repetido neste lote"))
                seen.add(code)
                continue
            if not mine:
                found.append(schema.Problem(i, where, f"sinistro não registrado pela "
                                            f"seguradora {insurer}: registre-o antes"))
                continue
            where = f"{key}[{i}].alteracao_sinistro_codigo"
            sequence, accepted = item.get("alteracao_sinistro_codigo"), known["alteracoes"]
            previous = last[code] if code in last else (
                int(accepted[-1]["alteracao_sinistro_codigo"]) if accepted else None)
            if not isinstance(sequence, str) or not _SEQUENCE.match(sequence):
                found.append(schema.Problem(i, where, "deve ser um número inteiro decimal"))
            elif previous is not None and int(sequence) <= previous:
                found.append(schema.Problem(
                    i, where, f"{sequence} não é maior que a última alteração ({previous})"))
            else:
                last[code] = int(sequence)
        return found


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive; every answer says its length
    server_version = "LocalRegistradora/1.0"
    timeout = 60  # an idle kept-alive connection is closed after this long

    def log_message(self, format: str, *args: Any) -> None:
        log.info("%s %s", self.address_string(), format % args)

    def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client left; nothing to tell it
            self.close_connection = True

    def _not_post(self) -> None:
        path = urlsplit(self.path).path
        if path in CLAIM_PATHS or path == TOKEN_PATH:
            return self._send(405, {"erros": [erro(405, f"{path} aceita somente POST.")]},
                              {"Allow": "POST"})
        self._send(404, {"erros": [erro(404, f"{path} não existe nesta registradora.")]})

    do_GET = do_PUT = do_PATCH = do_DELETE = _not_post

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        length = self.headers.get("Content-Length") or "0"
        if not length.isdigit() or int(length) > MAX_BODY:
            self.close_connection = True  # the body was not read: the connection is unusable
            return self._send(413, {"erros": [erro(413, _DETAILS[413])]})
        raw = self.rfile.read(int(length))
        if path == TOKEN_PATH:
            self._token(raw)
        elif path in CLAIM_PATHS:
            self._claims(path, raw)
        else:
            self._not_post()

    def _token(self, raw: bytes) -> None:
        form = parse_qs(raw.decode("utf-8", "replace"), keep_blank_values=True)
        scheme, _, credentials = self.headers.get("Authorization", "").partition(" ")
        basic = None
        if scheme.lower() == "basic":  # "id:secret", each form-encoded (RFC 6749 §2.3.1)
            try:
                decoded = base64.b64decode(credentials.strip(), validate=True).decode()
            except (binascii.Error, UnicodeDecodeError):
                decoded = ""
            client_id, _, secret = decoded.partition(":")
            basic = unquote_plus(client_id), unquote_plus(secret)
        self._send(*self.server.registradora.token_answer(form, basic))  # type: ignore[attr-defined]

    def _client_connected(self) -> bool:
        """Whether the client still waits: EOF on its socket means it closed its end."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return not readable or self.connection.recv(1, socket.MSG_PEEK) != b""
        except OSError:
            return False

    def _claims(self, path: str, raw: bytes) -> None:
        reg: LocalRegistradora = self.server.registradora  # type: ignore[attr-defined]
        try:
            body, parsed = json.loads(raw), True
        except ValueError:
            body, parsed = raw.decode("utf-8", "replace"), False
        stall = reg._take(reg._stalls)
        if stall is not None and (reg._stopping.wait(stall) or not self._client_connected()):
            # A client that timed out (or was killed) never saw a batch id: for it the batch
            # was not accepted, and its retry will send the same claims again. Recording the
            # batch here would leave this server saying otherwise, and refuse that retry as a
            # duplicate, by the luck of which thread ran first. So a request whose caller is
            # gone is dropped unprocessed (status None in ``received``), deterministically.
            with reg._lock:
                reg._record(path, body, None)
            self.close_connection = True
            return
        self._send(*reg.answer(path, body, parsed, self.headers.get("Authorization", "")))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Registradora local: a API Registro de Sinistro V3 da B3 nesta máquina.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8070)
    parser.add_argument("--client-id", default="sro-local")
    parser.add_argument("--client-secret", default="sro-local-secret")
    parser.add_argument("--token-ttl", type=int, default=3600)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    registradora = LocalRegistradora(args.host, args.port, client_id=args.client_id,
                                     client_secret=args.client_secret,
                                     token_ttl=args.token_ttl).start()
    # Both signals stop it cleanly; SIGINT explicitly, since a shell that starts it in the
    # background (a Makefile's "&") leaves SIGINT ignored for it.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: registradora._stopping.set())
    print(f"Registradora local em {registradora.url} (registro e alteracao em "
          f"{registradora.url}/api/sinistros/v3/…; token em {registradora.token_url}); "
          "Ctrl-C para parar", flush=True)
    registradora.serve_forever()


if __name__ == "__main__":
    main()
