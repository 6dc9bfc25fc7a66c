"""Development and test tools that production never installs: the demo (``manage.py
seed_demo`` and each app's part of it, demo/), the local registradora (registradora/,
``python -m localdev.registradora.server``) and the local bank (localbank/, ``python -m
localdev.localbank``). Installed only when ``LOCAL_DEV_TOOLS`` is on (docs/operations.md,
"Development tools"). The top layer: it may import every app, and no app imports it.
"""
