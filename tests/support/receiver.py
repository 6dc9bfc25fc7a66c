"""A real HTTP receiver on loopback for the webhook tests: a threaded HTTP/1.1 server on
a free port that records every request and answers with scripted replies."""

import dataclasses
import http.server
import threading
import time


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # an engine opens many connections at once


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
    at: float = dataclasses.field(default_factory=time.monotonic)  # when it arrived


class Receiver:
    """Answers the n-th request with the n-th reply (the last one repeats)."""

    def __init__(self, *replies: Reply):
        self.replies = list(replies) or [Reply()]
        self.requests: list[Received] = []
        # Requests being answered right now, and the most there ever were at once.
        self.in_flight = 0
        self.max_in_flight = 0
        self._changed = threading.Condition()
        self.server = _Server(("127.0.0.1", 0), self._handler())
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
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self._changed.notify_all()
            return self.replies[min(len(self.requests), len(self.replies)) - 1]

    def _answered(self) -> None:
        with self._changed:
            self.in_flight -= 1

    def _handler(self):
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                reply = receiver._arrived(Received(self.path, dict(self.headers.items()), body))
                try:
                    self._answer(reply)
                finally:
                    receiver._answered()

            def _answer(self, reply: Reply):
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
