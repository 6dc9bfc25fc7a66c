"""The OpenAPI schema right after a start: concurrent first requests to a fresh Gunicorn
worker all get it (building it in several threads at once once failed half of them)."""

from concurrent.futures import ThreadPoolExecutor

import requests

from tests.support import serving

CONCURRENT = 8


def test_concurrent_first_requests_to_a_fresh_worker_all_get_the_schema(tmp_path):
    serving.manage(tmp_path, "migrate", "--no-input")
    for attempt in range(3):  # three fresh starts: a race shows in one, not always
        with serving.gunicorn(tmp_path, workers=1, threads=CONCURRENT,
                              SECURE_SSL_REDIRECT="false") as url:
            with ThreadPoolExecutor(CONCURRENT) as pool:
                answers = list(pool.map(
                    lambda _: requests.get(f"{url}/api/v1/schema/?format=json", timeout=60),
                    range(CONCURRENT)))

        assert [answer.status_code for answer in answers] == [200] * CONCURRENT, attempt
        bodies = {answer.content for answer in answers}
        assert len(bodies) == 1 and b'"openapi"' in bodies.pop()
