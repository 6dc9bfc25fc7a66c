"""The production serving stack, started for real: Gunicorn with gunicorn.conf.py, and
nginx with the shipped deploy/nginx.conf in front (TLS with a throw-away certificate),
each on a free local port, and the demo channel's calls to it. Shared by the system
tests that start it (tests/system/) and bench/slow_clients.py.

nginx is Debian's (`apt-get install nginx-light`; .ci/run installs it). With CI=true a
missing nginx fails the tests that need it (``needs_nginx``); elsewhere they are skipped.
"""

import datetime as dt
import os
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
import urllib3
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

REPO_ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
NGINX_REQUIRED = os.environ.get("CI", "").lower() == "true"
needs_nginx = pytest.mark.skipif(
    NGINX is None and not NGINX_REQUIRED,
    reason="needs Debian's nginx (apt-get install nginx-light; .ci/run installs it)",
)
# seed_demo's channel and its sales (claims.management.commands.seed_demo).
DEMO_CREDENTIALS = {"grant_type": "client_credentials", "client_id": "demo-client",
                    "client_secret": "demo-secret"}
DEMO_SALE_MARIA = "3f6c1a52-8d1e-4b7a-9c55-0a1b2c3d4e01"
DEMO_SALE_JOAO = "3f6c1a52-8d1e-4b7a-9c55-0a1b2c3d4e02"
DEATH_OPENING = {
    "cobertura": "cobertura/morte", "natureza": "morte-natural",
    "data-ocorrencia": "2026-11-01T10:00:00-03:00",
    "solicitante": {"nome": "Pedro da Silva"},
    "pessoa-para-contato": {"nome": "Pedro da Silva", "email": "pedro@example.com"},
}
STARTUP_SECONDS = 30

# Variables of the parent (a developer's shell, CI's PostgreSQL run) that must not decide
# what the served settings do.
_OVERRIDDEN = ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "DJANGO_DEBUG",
               "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "MEDIA_ROOT",
               "STATIC_ROOT")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def client_tls() -> ssl.SSLContext:
    """Trusts the throw-away certificate (the test talks to its own proxy)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def get(url: str, timeout: float, **headers) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=client_tls()) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def self_signed(folder: Path, name: str = "127.0.0.1") -> tuple[Path, Path]:
    """A certificate for ``name`` that no trust store knows, and its key, as files."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.timezone.utc)
    certificate = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def _wait_until_answering(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited: {log.read_text()[-3000:]}")
        try:
            if get(url, timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {STARTUP_SECONDS} s: "
                       f"{log.read_text()[-3000:]}")


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def served_env(folder: Path, **variables: str) -> dict[str, str]:
    """The production settings on ``folder``'s SQLite database, with ``variables``."""
    env = {key: value for key, value in os.environ.items() if key not in _OVERRIDDEN}
    key_file = folder / "secret-key"
    if not key_file.exists():  # one key per folder: manage.py and gunicorn share sessions
        key_file.write_text(secrets.token_urlsafe(50))
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY=key_file.read_text(),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        MEDIA_ROOT=str(folder / "media"),
        STATIC_ROOT=str(folder / "static"),  # pages need `manage(folder, "collectstatic")`
        **variables,
    )
    return env


def manage(folder: Path, *arguments: str, **variables: str) -> str:
    """``manage.py`` on the served settings; returns what it printed."""
    done = subprocess.run([sys.executable, "manage.py", *arguments], cwd=REPO_ROOT,
                          env=served_env(folder, **variables), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done.stdout


def seed_demo(folder: Path, **variables: str) -> None:
    """A database with the demo data, and the static files the pages link."""
    manage(folder, "migrate", "--no-input", **variables)
    manage(folder, "collectstatic", "--no-input", **variables)
    manage(folder, "seed_demo", "--allow-production", "--sinistros=0", **variables)


def session() -> requests.Session:
    """A client of the test's own proxy (its throw-away certificate is not checked)."""
    urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)
    client = requests.Session()
    client.verify, client.trust_env = False, False  # REQUESTS_CA_BUNDLE would win over verify
    return client


def demo_token(url: str) -> requests.Response:
    return session().post(f"{url}/oauth/token", data=DEMO_CREDENTIALS, timeout=10)


def demo_api(url: str) -> requests.Session:
    """The demo channel, with a fresh token."""
    api = session()
    api.headers["Authorization"] = f"Bearer {demo_token(url).json()['access_token']}"
    return api


@contextmanager
def gunicorn(folder: Path, *, workers: int = 1, threads: int = 2, **variables: str):
    """Gunicorn with the shipped gunicorn.conf.py; yields its http://host:port."""
    port = free_port()
    env = served_env(folder, GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY=str(workers),
                     GUNICORN_THREADS=str(threads), **variables)
    log = folder / "gunicorn.log"
    with open(log, "wb") as output:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py"],
                                   cwd=REPO_ROOT, env=env, stdout=output,
                                   stderr=subprocess.STDOUT)
    try:
        # Over plain http, Django answers probes only (SECURE_REDIRECT_EXEMPT).
        _wait_until_answering(f"http://127.0.0.1:{port}/saude/vivo", process, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        _stop(process)


def site_config(app_port: int, http_port: int, https_port: int, folder: Path) -> str:
    """deploy/nginx.conf with only its ports, certificate and log paths changed."""
    cert, key = self_signed(folder)
    text = (REPO_ROOT / "deploy" / "nginx.conf").read_text()
    for shipped, local in [
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{app_port};"),
        ("listen 80 default_server;", f"listen 127.0.0.1:{http_port} default_server;"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;"),
        ("/etc/ssl/sinistros/fullchain.pem", str(cert)),
        ("/etc/ssl/sinistros/privkey.pem", str(key)),
        ("/var/log/nginx/sinistros.json", str(folder / "nginx-access.json")),
    ]:
        assert text.count(shipped) == 1, f"deploy/nginx.conf no longer has {shipped!r}"
        text = text.replace(shipped, local)
    return text


@contextmanager
def nginx(folder: Path, app_url: str):
    """The shipped proxy in front of ``app_url``; yields its https://host:port."""
    if NGINX is None:
        pytest.fail("CI=true but nginx is missing: .ci/run installs Debian's nginx-light")
    app_port = int(app_url.rsplit(":", 1)[1])
    http_port, https_port = free_port(), free_port()
    (folder / "site.conf").write_text(site_config(app_port, http_port, https_port, folder))
    temp = {kind: folder / f"nginx-{kind}" for kind in ("body", "proxy", "fastcgi", "uwsgi",
                                                       "scgi")}
    # Running as root, nginx's workers would drop to "nobody" and lose the temp folders.
    user = "user root;" if os.geteuid() == 0 else ""
    (folder / "nginx.conf").write_text(f"""
        {user}
        daemon off;
        worker_processes 1;
        pid {folder / 'nginx.pid'};
        error_log {folder / 'nginx-error.log'} warn;
        events {{ worker_connections 1024; }}
        http {{
            client_body_temp_path {temp['body']};
            proxy_temp_path {temp['proxy']};
            fastcgi_temp_path {temp['fastcgi']};
            uwsgi_temp_path {temp['uwsgi']};
            scgi_temp_path {temp['scgi']};
            include {folder / 'site.conf'};
        }}
    """)
    log = folder / "nginx-error.log"
    process = subprocess.Popen([NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder),
                                "-e", str(log)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT)
    try:
        url = f"https://127.0.0.1:{https_port}"
        _wait_until_answering(f"{url}/saude/vivo", process, log)
        yield url
    finally:
        _stop(process)


@contextmanager
def stalled_clients(url: str, *, token_posts: int, upload_puts: int):
    """Connections that start a request and then send nothing more: ``token_posts`` send
    part of the headers of POST /oauth/token, ``upload_puts`` the headers and the first
    KiB of a 1 MB PUT /uploads/<token>. Yields them, still open; closes them after."""
    host, port = url.split("://", 1)[1].split(":")
    tls = client_tls() if url.startswith("https") else None
    connections = []
    try:
        for number in range(token_posts + upload_puts):
            connection = socket.create_connection((host, int(port)), timeout=10)
            if tls is not None:
                connection = tls.wrap_socket(connection, server_hostname=host)
            connections.append(connection)
            if number < token_posts:
                connection.sendall(b"POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                   b"Content-Type: application/json\r\n")
            else:
                connection.sendall(b"PUT /uploads/stalled-upload-" + str(number).encode()
                                   + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                   b"Content-Type: application/pdf\r\n"
                                   b"Content-Length: 1000000\r\n\r\n" + b"%PDF" + b"0" * 1020)
        yield connections
    finally:
        for connection in connections:
            connection.close()
