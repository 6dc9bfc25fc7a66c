"""Forgetting (docs/privacy-forgetting.md): anonymising the claims whose retention clock
ran out and that no legal hold keeps, and the sales whose term ended with them.

- ``redaction``: a claim's people's identifiers and their placeholders;
- ``claim_data`` and ``other_data``: every table that holds them, cleaned;
- ``cnab``: the bank's files, one person's lines masked in place;
- ``services``: one claim or one sale, in one transaction, with its evidence;
- ``runs``: the batches, the lock, the dry run.
"""
