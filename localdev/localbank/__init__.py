"""A local bank for development and tests: answers CNAB 240 remittances with returns
(docs/cnab240.md, "O banco local"). Only the standard library and payouts.cnab240."""
