"""A real HTTP receiver on loopback for the webhook tests: a threaded HTTP/1.1 server on
a free port that records every request and answers with scripted replies."""

import dataclasses
import http.server
import threading
import time


@dataclasses.dataclass
class Reply:
    status: int = 204
    headers: dict[str, str] = dataclasses.field(default_factory=dict)
    body: bytes = b""
    delay: float = 0.0  # seconds to hold the request before answering


@dataclasses.dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """Answers the n-th request with the n-th reply (the last one repeats)."""

    def __init__(self, *replies: Reply):
        self.replies = list(replies) or [Reply()]
        self.requests: list[Received] = []
        self._changed = threading.Condition()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/webhooks/sinistros"

    def __enter__(self) -> "Receiver":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, count: int, timeout: float) -> bool:
        """Whether ``count`` requests arrived within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.requests) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def _arrived(self, request: Received) -> Reply:
        with self._changed:
            self.requests.append(request)
            self._changed.notify_all()
            return self.replies[min(len(self.requests), len(self.replies)) - 1]

    def _handler(self):
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                reply = receiver._arrived(Received(self.path, dict(self.headers.items()), body))
                if reply.delay:
                    time.sleep(reply.delay)
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                except OSError:  # the client is gone (a killed worker, a time-out)
                    self.close_connection = True

            def log_message(self, *args):
                pass

        return Handler
