"""How long a normal request waits while slow clients hold connections open, with
Gunicorn exposed directly and behind the shipped nginx (deploy/nginx.conf):

    python bench/slow_clients.py [--token-posts 64] [--upload-puts 16] [--threads 2]

Starts Gunicorn (gunicorn.conf.py, one worker) and nginx on free local ports (needs
Debian's nginx), opens the stalled connections (headers of POST /oauth/token cut short,
upload PUTs whose body stops after 1 KiB), times GET /saude/vivo both ways in one run
and prints the ratio. The request gives up after --give-up seconds.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support import serving  # noqa: E402


def timed_request(url: str, give_up: float) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        status = serving.get(f"{url}/saude/vivo", timeout=give_up)[0]
        outcome = str(status)
    except OSError as error:
        outcome = f"gave up ({type(error).__name__})"
    return time.perf_counter() - started, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--token-posts", type=int, default=64)
    parser.add_argument("--upload-puts", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--give-up", type=float, default=60.0)
    args = parser.parse_args()
    if serving.NGINX is None:
        sys.exit("needs nginx (apt-get install nginx-light)")

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        with serving.gunicorn(folder, workers=1, threads=args.threads) as app, \
                serving.nginx(folder, app) as proxy:
            results = {}
            for name, url in (("gunicorn directly", app), ("behind nginx", proxy)):
                with serving.stalled_clients(url, token_posts=args.token_posts,
                                             upload_puts=args.upload_puts):
                    time.sleep(0.5)  # let the server pick the stalled connections up
                    results[name] = timed_request(url, args.give_up)

    print(f"{args.token_posts} stalled token POSTs + {args.upload_puts} stalled upload PUTs, "
          f"1 worker x {args.threads} threads; GET /saude/vivo:")
    for name, (seconds, outcome) in results.items():
        print(f"  {name:18} {seconds * 1000:9.1f} ms  ({outcome})")
    direct, proxied = results["gunicorn directly"][0], results["behind nginx"][0]
    print(f"  ratio direct/proxied: {direct / proxied:.0f}x")


if __name__ == "__main__":
    main()
