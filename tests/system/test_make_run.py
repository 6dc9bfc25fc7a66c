"""``make run`` as a newcomer starts it: a quiet start that ends with the addresses and
the credentials (no JSON log lines, no server banner: those go to the log files), and a
SIGTERM to it, started in the background, stops the server, the worker and the local
registradora."""

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import requests

from tests.support.serving import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def anyone_left(group: int) -> bool:
    """Whether any process of ``make run``'s session (server, worker, registradora) lives."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_quiet_start_ends_with_the_access_and_sigterm_stops_everything(tmp_path):
    web, registradora = free_port(), free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "EMAIL_URL",
                          "BASE_URL")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
               EMAIL_URL=f"filemail:///{tmp_path / 'mail'}")
    make = subprocess.Popen(
        ["make", "run", f"RUN_PORT={web}", f"REGISTRADORA_PORT={registradora}",
         "DEMO_SINISTROS=0", f"RUN_LOG_DIR={tmp_path / 'log'}"],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            line = make.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "Ctrl-C encerra tudo" in line:
                break
        printed = "".join(lines)
        assert "Ctrl-C encerra tudo" in printed, printed[-3000:]
        assert f"http://127.0.0.1:{web}/admin/" in printed
        assert "client_secret: demo-secret" in printed and "supervisor / supervisor-demo" in printed
        assert '{"level"' not in printed and "Starting development server" not in printed
        assert requests.get(f"http://127.0.0.1:{web}/saude/vivo", timeout=5).status_code == 200
        # What the service hands out points at the port it serves on (url-envio, PDFs,
        # problem types, the token URL the docs page authorizes with).
        problem = requests.get(f"http://127.0.0.1:{web}/api/v1/nada", timeout=5).json()
        assert problem["type"].startswith(f"http://127.0.0.1:{web}/api/v1/problemas/")
        assert listening(registradora)
        assert (tmp_path / "log" / "web.log").exists()

        make.send_signal(signal.SIGTERM)
        make.wait(timeout=30)

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and anyone_left(make.pid):
            time.sleep(0.2)
        assert not anyone_left(make.pid)  # the worker and the registradora too
        assert not listening(web) and not listening(registradora)
    finally:
        if anyone_left(make.pid):
            os.killpg(make.pid, signal.SIGKILL)
