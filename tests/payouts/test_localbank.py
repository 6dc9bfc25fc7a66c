"""The local bank as a real process on temporary folders: what it answers, read with the
independent reader (tests/payouts/cnab_reader.py)."""

import datetime as dt
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone

from payouts.cnab240 import Company, Form, Order, outcome, read_return, write_remittance
from tests.payouts.cnab_reader import records

ROOT = Path(__file__).resolve().parents[2]
PAY_ON = dt.date(2026, 12, 1)
BB = Company(bank="001", branch="1234", branch_digit="3", account="123456", account_digit="0",
             agreement="123456789", tax_id="11222333000181", name="Seguradora Exemplo",
             flavour="bb")


def _orders() -> list[Order]:
    return [
        Order("PG-1", Form.TED, Decimal("100.00"), PAY_ON, "Maria", "52998224725",
              bank="237", branch="1", account="1231", account_digit="5"),
        Order("PG-2", Form.TED, Decimal("200.00"), PAY_ON, "Jose", "52998224725",
              bank="237", branch="1", account="4560", account_digit="1"),
        Order("PG-3", Form.PIX_KEY, Decimal("300.00"), PAY_ON, "Ana", "52998224725",
              pix_key="ana@invalido.test", pix_key_type="email"),
        Order("PG-4", Form.PIX_KEY, Decimal("50000.00"), PAY_ON, "Bia", "52998224725",
              pix_key="+5511912345678", pix_key_type="telefone"),
    ]


def _remittance(sequence: int) -> bytes:
    return write_remittance(BB, sequence=sequence, generated_at=dt.datetime(2026, 11, 30, 9),
                            orders=_orders())


def _bank(outbox: Path, inbox: Path, *extra: str, **kwargs) -> list[str]:
    return [sys.executable, "-m", "localdev.localbank", "--outbox", str(outbox),
            "--inbox", str(inbox), "--refuse-accounts-ending", "0",
            "--schedule-above", "10000", *extra]


def _answers(ret: bytes) -> dict[str, tuple[str, str, str]]:
    """reference -> (occurrences, effective date, effective amount)."""
    return {f["reference"].rstrip(): (f["occurrences"].rstrip(), f["real_date"],
                                      f["real_amount"])
            for kind, f in records(ret) if kind == "A"}


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_once_answers_each_remittance_by_the_rules_and_files_it_away(tmp_path):
    outbox, inbox = tmp_path / "saida", tmp_path / "entrada"
    outbox.mkdir()
    (outbox / "PAG00007.rem").write_bytes(_remittance(7))
    (outbox / ".PAG00008.rem.tmp").write_bytes(b"half a file")
    subprocess.run(_bank(outbox, inbox, "--once"), cwd=ROOT, env=_env(), check=True,
                   timeout=60, capture_output=True)
    ret = (inbox / "PAG00007.ret").read_bytes()
    header = records(ret)[0][1]
    assert header["kind"] == "2" and header["sequence"] == "000007"
    assert _answers(ret) == {
        # Paid on the file's date, or today if the bank answers after it.
        "PG-1": ("00", min(PAY_ON, timezone.localdate()).strftime("%d%m%Y"), f"{10000:015d}"),
        "PG-2": ("AG", "00000000", f"{0:015d}"),         # account ending in 0
        "PG-3": ("PJ", "00000000", f"{0:015d}"),         # key that does not exist
        "PG-4": ("BD", "00000000", f"{0:015d}"),         # above R$ 10.000,00: scheduled
    }
    assert (outbox / "processados" / "PAG00007.rem").exists()
    assert not (outbox / "PAG00007.rem").exists()
    assert (outbox / ".PAG00008.rem.tmp").exists()       # still being written: left alone
    assert sorted(p.name for p in inbox.iterdir()) == ["PAG00007.ret"]


def test_a_payees_wrong_check_digit_refuses_that_order_only(tmp_path):
    outbox, inbox = tmp_path / "saida", tmp_path / "entrada"
    outbox.mkdir()
    orders = [*_orders()[:1],
              Order("PG-9", Form.TED, Decimal("80.00"), PAY_ON, "Rui", "52998224725",
                    bank="341", branch="1234", account="56789", account_digit="1")]  # DV is 7
    (outbox / "PAG00009.rem").write_bytes(write_remittance(
        BB, sequence=9, generated_at=dt.datetime(2026, 11, 30, 9), orders=orders))
    subprocess.run(_bank(outbox, inbox, "--once"), cwd=ROOT, env=_env(), check=True,
                   timeout=60, capture_output=True)

    answers = _answers((inbox / "PAG00009.ret").read_bytes())
    assert (answers["PG-1"][0], answers["PG-9"][0]) == ("00", "AG")
    assert not (inbox / "PAG00009.erro").exists()


def test_a_remittance_with_problems_is_refused_whole_with_the_reasons(tmp_path):
    outbox, inbox = tmp_path / "saida", tmp_path / "entrada"
    outbox.mkdir()
    lines = _remittance(9).split(b"\r\n")
    lines[-2] = lines[-2][:17] + b"000003" + lines[-2][23:]     # file trailer: 3 lots
    (outbox / "PAG00009.rem").write_bytes(b"\r\n".join(lines))
    subprocess.run(_bank(outbox, inbox, "--once"), cwd=ROOT, env=_env(), check=True,
                   timeout=60, capture_output=True)
    reasons = (inbox / "PAG00009.erro").read_text(encoding="utf-8")
    assert "trailer do arquivo diz 000003 lotes" in reasons
    ret = (inbox / "PAG00009.ret").read_bytes()
    assert {ref: codes for ref, (codes, _d, _a) in _answers(ret).items()} == {
        "PG-1": "HA", "PG-2": "HA", "PG-3": "HA", "PG-4": "HA"}
    assert {f["occurrences"].rstrip() for k, f in records(ret) if k == "lot_header"} == {"HA"}
    answer = read_return(ret)
    assert answer.sequence == 9 and answer.lots == 2
    assert answer.extra["lot_occurrences"] == {1: ("HA",), 2: ("HA",)}
    assert {outcome(item.occurrences) for item in answer.items} == {"refused"}


def test_the_loop_answers_files_as_they_arrive_after_the_delay(tmp_path):
    outbox, inbox = tmp_path / "saida", tmp_path / "entrada"
    bank = subprocess.Popen(_bank(outbox, inbox, "--delay", "1", "--poll", "0.1"), cwd=ROOT,
                            env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while not outbox.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        # Written the way the sender writes: a temporary name, then renamed.
        (outbox / ".PAG00010.rem.tmp").write_bytes(_remittance(10))
        os.replace(outbox / ".PAG00010.rem.tmp", outbox / "PAG00010.rem")
        arrived = time.monotonic()
        while not (inbox / "PAG00010.ret").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (inbox / "PAG00010.ret").exists()
        assert time.monotonic() - arrived >= 0.9        # not before the delay
        assert _answers((inbox / "PAG00010.ret").read_bytes())["PG-1"][0] == "00"
        (outbox / "PAG00011.rem").write_bytes(_remittance(11))
        while not (inbox / "PAG00011.ret").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert records((inbox / "PAG00011.ret").read_bytes())[0][1]["sequence"] == "000011"
        time.sleep(0.5)                                   # answered once: no second answer
        assert sorted(p.name for p in inbox.iterdir()) == ["PAG00010.ret", "PAG00011.ret"]
    finally:
        bank.terminate()
        _out, err = bank.communicate(timeout=10)
    assert bank.returncode == 0, err.decode()


@pytest.mark.parametrize("args", [["--outbox", "x"], []])
def test_the_command_names_what_is_missing(tmp_path, args):
    done = subprocess.run([sys.executable, "-m", "localdev.localbank", *args], cwd=ROOT,
                          env=_env(), capture_output=True, timeout=60)
    assert done.returncode == 2 and b"--inbox" in done.stderr
