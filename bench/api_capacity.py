"""Benchmark (not a test): the API's capacity with the shipped gunicorn configuration
against the one it replaced, alternated in one run, so the machine's changes of speed
fall on both alike.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/api_capacity.py [--cycles 4] [--port 8850]

The tail's target (docs/performance.md, "The API's tail") allows it to cost at most 10 %
of the capacity. The configurations, both from ``gunicorn.conf.py`` (5 workers × 4
threads):

- **shipped**: as it is;
- **before**: as it was before the tail's changes: each worker takes up to 1,000
  connections and keeps them alive for 5 s, restarts after 1,000 requests (±100), and
  does not freeze its loaded application for Python's collector
  (``GUNICORN_WORKER_CONNECTIONS=1000 GUNICORN_KEEPALIVE=5 GUNICORN_MAX_REQUESTS=1000
  GUNICORN_GC_FREEZE=0``).

Each cycle starts each configuration afresh (the order alternates from cycle to cycle)
on a freshly analysed database, warms it up for 3 s, then measures what
``bench/api_tail.py`` calls capacity: 16 clients in a closed loop for 10 s, GET of a
claim, then openings (each on a fresh sale). It prints every measurement and ends with
one line: ``capacity shipped/before: GET <x> POST <y> (median of <n> cycles)``, each
the median of the cycles' ratios.
"""

import argparse
import asyncio
import gc
import statistics

# api_tail first: it sets up Django (the path, the settings) as every benchmark does.
from api_tail import (
    CAPACITY_SECONDS,
    Load,
    analyse_database,
    capacity,
    purge_broker,
    settle_database,
    start_shipped_gunicorn,
)
from api_requests import scratch_database, setup_data

CONFIGURATIONS = {
    "shipped": {},
    "before": {"GUNICORN_WORKER_CONNECTIONS": "1000", "GUNICORN_KEEPALIVE": "5",
               "GUNICORN_MAX_REQUESTS": "1000", "GUNICORN_GC_FREEZE": "0"},
}
WARM_UP_SECONDS = 3
# Openings per second stay well under this on a 2-core machine: the sales to open on.
MOST_OPENINGS_PER_SECOND = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=4)
    parser.add_argument("--port", type=int, default=8850)
    args = parser.parse_args()
    with scratch_database():
        run(args)


def measure(name: str, port: int, token: str, number: str, sale_ids) -> tuple[float, float]:
    """GET and POST capacity of a fresh server of configuration ``name``."""
    analyse_database()  # the openings before grew the claims table
    server = start_shipped_gunicorn(port, **CONFIGURATIONS[name])
    try:
        load = Load(f"http://127.0.0.1:{port}", token, number, sale_ids)
        asyncio.run(capacity(load.get, WARM_UP_SECONDS))
        asyncio.run(capacity(load.post, WARM_UP_SECONDS))
        return (asyncio.run(capacity(load.get, CAPACITY_SECONDS)),
                asyncio.run(capacity(load.post, CAPACITY_SECONDS)))
    finally:
        server.terminate()
        server.wait(timeout=30)


def run(args) -> None:
    per_measurement = MOST_OPENINGS_PER_SECOND * (WARM_UP_SECONDS + CAPACITY_SECONDS)
    channel, token, number, sales = setup_data(per_measurement * 2 * args.cycles)
    sale_ids = iter([str(sale.id) for sale in sales])
    del sales
    gc.collect()
    gc.freeze()
    settle_database()
    ratios: dict[str, list[float]] = {"GET": [], "POST": []}
    try:
        for cycle in range(1, args.cycles + 1):
            order = list(CONFIGURATIONS) if cycle % 2 else list(reversed(CONFIGURATIONS))
            measured = {name: measure(name, args.port, token, number, sale_ids)
                        for name in order}
            for index, label in enumerate(ratios):
                ratios[label].append(measured["shipped"][index] / measured["before"][index])
            print(f"cycle {cycle}: " + "; ".join(
                f"{name} GET {measured[name][0]:.0f}/s POST {measured[name][1]:.0f}/s"
                for name in order)
                + f"; shipped/before GET {ratios['GET'][-1]:.2f} POST {ratios['POST'][-1]:.2f}")
    finally:
        purge_broker()
    print(f"capacity shipped/before: GET {statistics.median(ratios['GET']):.2f} "
          f"POST {statistics.median(ratios['POST']):.2f} (median of {args.cycles} cycles)")


if __name__ == "__main__":
    main()
