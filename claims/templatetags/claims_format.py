"""Template filters for how people read claims (see ``claims.formatting``)."""

from django import template

from claims import formatting

register = template.Library()

register.filter("brl", formatting.brl)
register.filter("coverage_label", formatting.coverage_label)
register.filter("tax_id", formatting.tax_id)
register.filter("history_label", formatting.history_label)
register.filter("payment_method", formatting.payment_method_summary)


@register.simple_tag
def actor_label(actor: str, user=None, channel=None) -> str:
    return formatting.actor_label(actor, user, channel)
