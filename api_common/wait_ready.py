"""``python -m api_common.wait_ready URL [SECONDS]``: wait until ``URL`` answers (any HTTP
status), for ``make run`` to print its addresses only once the server is up. Exits 1 if
it never answers within SECONDS (60)."""

import sys
import time
import urllib.error
import urllib.request


def wait(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1)  # noqa: S310 (the caller's own address)
            return True
        except urllib.error.HTTPError:
            return True  # it answered
        except OSError:
            time.sleep(0.2)
    return False


if __name__ == "__main__":
    sys.exit(0 if wait(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 60) else 1)
