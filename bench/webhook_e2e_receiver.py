"""The receiver of bench/webhook_e2e.py: aiohttp on 127.0.0.1, in ``--processes`` processes
sharing one port (SO_REUSEPORT: the kernel spreads connections over them), no Django.

    python bench/webhook_e2e_receiver.py --port 8123 --processes 2 --out DIR

Routes: ``/rapido`` 204 at once, ``/lento`` 204 after 200 ms, ``/pendura`` 204 after
30 s (asyncio.sleep, so a process holds any number of them). Every request is written to
``DIR/recv-<process>.log`` (buffered, flushed every 50 ms), so the bench reads them all:
``A route webhook-id arrival seq`` when it arrives (time.time(), before the body is
read) and ``E route seq end`` when it is answered; the bench computes the concurrency
per route from those intervals. ``DIR/ready-<process>`` appears once a process listens.
"""

import argparse
import asyncio
import itertools
import multiprocessing
import os
import signal
import time
from pathlib import Path

from aiohttp import web

HOLD = {"rapido": 0.0, "lento": 0.2, "pendura": 30.0}


def serve(port: int, index: int, out: Path) -> None:
    lines: list[str] = []
    sequence = itertools.count()

    async def handle(request: web.Request) -> web.Response:
        arrival = time.time()
        route, number = request.match_info["route"], next(sequence)
        message_id = request.headers.get("webhook-id", "-")
        lines.append(f"A\t{route}\t{message_id}\t{arrival:.6f}\t{number}\n")
        try:
            await request.read()
            if HOLD[route]:
                await asyncio.sleep(HOLD[route])
            return web.Response(status=204)
        finally:
            lines.append(f"E\t{route}\t{number}\t{time.time():.6f}\n")

    async def flush_forever(path: Path) -> None:
        with path.open("a", buffering=1 << 16) as file:
            while True:
                await asyncio.sleep(0.05)
                if lines:
                    chunk = "".join(lines)
                    lines.clear()
                    file.write(chunk)
                    file.flush()

    async def main() -> None:
        app = web.Application()
        app.router.add_post(r"/{route:rapido|lento|pendura}", handle)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port, reuse_port=True, backlog=1024).start()
        (out / f"ready-{index}").touch()
        await flush_forever(out / f"recv-{index}.log")

    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    children = [multiprocessing.Process(target=serve, args=(args.port, i, args.out))
                for i in range(args.processes)]
    for child in children:
        child.start()

    def stop(*_):
        for child in children:
            child.terminate()
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for child in children:
        child.join()


if __name__ == "__main__":
    main()
