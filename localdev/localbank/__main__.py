"""``python -m localdev.localbank --outbox DIR --inbox DIR [--delay S] [--once] ...``"""

import argparse
import logging
import signal
from decimal import Decimal
from pathlib import Path

from localdev.localbank.bank import Rules, run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m localdev.localbank",
                                     description="Banco local: responde remessas CNAB 240.")
    parser.add_argument("--outbox", required=True, type=Path, help="onde chegam as remessas")
    parser.add_argument("--inbox", required=True, type=Path, help="onde ficam os retornos")
    parser.add_argument("--delay", type=float, default=0.0,
                        help="segundos entre ver uma remessa e respondê-la")
    parser.add_argument("--refuse-accounts-ending", default="",
                        help="recusa (AG) contas que terminam neste dígito")
    parser.add_argument("--missing-key-suffix", default="@invalido.test",
                        help="chaves PIX e-mail com este final não existem (PJ)")
    parser.add_argument("--schedule-above", type=Decimal, default=None,
                        help="valores acima deste ficam agendados (BD)")
    parser.add_argument("--once", action="store_true",
                        help="responde o que houver e termina")
    parser.add_argument("--poll", type=float, default=0.5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    rules = Rules(refuse_accounts_ending=args.refuse_accounts_ending,
                  missing_key_suffix=args.missing_key_suffix,
                  schedule_above=args.schedule_above)
    logging.getLogger("localdev.localbank").info(
        "banco local: remessas em %s, retornos em %s", args.outbox, args.inbox)
    try:
        run(args.outbox, args.inbox, rules, delay=args.delay, once=args.once, poll=args.poll,
            stop=lambda: bool(stopping))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
