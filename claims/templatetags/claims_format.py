"""Template filters for how people read claims (see ``claims.formatting``)."""

from django import template

from claims import coverages, formatting, payment_words

register = template.Library()

register.filter("brl", formatting.brl)
register.filter("coverage_label", coverages.coverage_label)
register.filter("tax_id", formatting.tax_id)
register.filter("history_label", formatting.history_label)
register.filter("payment_method", payment_words.payment_method_summary)
register.filter("is_internal", formatting.is_internal)
register.filter("phone", formatting.phone)  # {{ number|phone:area_code }}
register.filter("local_moment", formatting.local_moment)
register.filter("percent", formatting.percent)
register.filter("pays_on_death", coverages.pays_on_death)


@register.simple_tag
def actor_label(actor: str, user=None, channel=None) -> str:
    return formatting.actor_label(actor, user, channel)


@register.simple_tag
def history_actor(row, claim) -> str:
    """Who made a history row; the opening on the hosted pages by the requester's name
    (what the person wrote as theirs when they opened it)."""
    name = claim.requester_name if row.action == "abrir" else ""
    return formatting.actor_label(row.actor, row.user, claim.sale.channel, name=name)


@register.simple_tag
def person(user) -> str:
    return formatting.person(user)
