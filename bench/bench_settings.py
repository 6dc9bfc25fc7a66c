"""Settings of the benchmark server (bench/api_requests.py): the production settings
plus a few comparison views (bench_urls). Never used outside bench/."""

from config.settings import *  # noqa: F401,F403

ROOT_URLCONF = "bench_urls"
