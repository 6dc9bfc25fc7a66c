"""The rules in the analysts' admin (docs/decisions-pages.md): rule sets and their modes,
versions with their table and the four eyes, simulation, kill switches, the sampled
reviews' queue and the rules' decisions. Every change calls a service of
``decisions.services``; a refusal there is the page's message, never an error page.
Supervisors act; analysts read the rules and their decisions."""

from decisions.admin import (  # noqa: F401  (registers the admins)
    evaluations,
    rule_sets,
    samples,
    switches,
    versions,
)
