"""Which network addresses a webhook may reach: the one rule shared by the check when a
subscription is saved (webhooks.destinations) and the check at connect time (the HTTP
session of the workers), so DNS rebinding between the two changes nothing."""

import ipaddress

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Beyond what Python flags (every flag of the ipaddress module is asked, below): CGNAT,
# the cloud metadata addresses, NAT64 and 6to4 (which embed IPv4 addresses), the Segment
# Routing range and the IPv6 documentation prefix of 2024 (3fff::/20, RFC 9637), which
# this Python's tables predate.
EXTRA_FORBIDDEN = tuple(ipaddress.ip_network(net) for net in (
    "100.64.0.0/10", "169.254.169.254/32", "fd00:ec2::254/128", "64:ff9b::/96",
    "64:ff9b:1::/48", "2002::/16", "192.88.99.0/24", "192.0.0.0/24", "5f00::/16",
    "3fff::/20",
))


def allowed_networks() -> list:
    return [ipaddress.ip_network(net.strip(), strict=False)
            for net in settings.WEBHOOK_ALLOWED_NETWORKS if net.strip()]


def in_allowed_networks(ip: IPAddress) -> bool:
    return any(ip.version == net.version and ip in net for net in allowed_networks())


def forbidden_reason(ip: IPAddress) -> str | None:
    """Why ``ip`` may not be a webhook destination (Portuguese), or None when it may."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        if in_allowed_networks(ip) or in_allowed_networks(ip.ipv4_mapped):
            return None
        return "endereço IPv4 mapeado em IPv6"
    if in_allowed_networks(ip):
        return None
    if ip.is_loopback:
        return "endereço de loopback"
    if ip.is_link_local:
        return "endereço link-local"
    if ip.is_multicast:
        return "endereço multicast"
    if any(ip.version == net.version and ip in net for net in EXTRA_FORBIDDEN):
        return "endereço reservado (CGNAT, metadados de nuvem, tradução ou documentação)"
    if getattr(ip, "is_site_local", False):  # fec0::/10, deprecated, yet "global" to Python
        return "endereço privado ou reservado (site-local)"
    if ip.is_private or ip.is_reserved or ip.is_unspecified or not ip.is_global:
        return "endereço privado ou reservado"
    return None
