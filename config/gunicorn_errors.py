"""Gunicorn's answers to requests it cannot parse (a NUL or a repeated Content-Type in
the headers, a bad Content-Length, a request line or headers past its limits) as
problem JSON instead of its HTML page: the same shape as every other error of the
service, whoever is calling. Installed by gunicorn.conf.py.

Gunicorn writes these itself, before any application code runs, through one function
(``gunicorn.util.write_error``), which has no setting or hook; this module replaces it.
"""

import json

from gunicorn import util


def write_problem(sock, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error``'s signature, writing RFC 9457 problem JSON."""
    # Imported here: the worker has loaded Django by the time a request fails.
    from api_common.http_problems import problem_for_status
    from api_common.problems import PROBLEM_CONTENT_TYPE, problem_body

    problem = problem_for_status(status_int)
    try:
        document = problem_body(
            problem_id=problem.problem_id, status=status_int, title=problem.title,
            # Gunicorn's own words ("Invalid HTTP Header: 'CONTENT-TYPE'") say what to fix.
            detail=mesg or reason,
        )
    except Exception:  # settings unreadable: still JSON, with what is known here
        document = {"title": problem.title, "status": status_int, "detail": mesg or reason,
                    "problem-id": problem.problem_id}
    body = json.dumps(document, ensure_ascii=False).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_CONTENT_TYPE}\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


def install() -> None:
    util.write_error = write_problem
