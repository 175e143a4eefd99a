"""Where a webhook may be sent (SSRF): http or https only, and — unless the setting
``WEBHOOKS_ALLOW_PRIVATE`` is on — only to public addresses.

A URL is checked when it is registered and again before every attempt (DNS may have changed
since), and the attempt connects to the very address checked here (``Target.address``), so a
name cannot resolve to a public address for the check and to a private one for the connection.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext

log = logging.getLogger(__name__)

MAX_URL_LENGTH = 2000
SCHEMES = {"http": 80, "https": 443}


class UnsafeURL(ValueError):
    """The URL is malformed, does not resolve, or points at an address webhooks may not reach."""


@dataclass(frozen=True)
class Target:
    url: str  # as registered
    scheme: str
    host: str  # the name (or literal address) of the URL, for the Host header, SNI and the certificate
    port: int
    address: str  # the checked IP address to connect to


def parse(url: str) -> Target:
    """The URL's parts (``address`` not yet resolved), or UnsafeURL saying what is wrong."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL_LENGTH:
        raise UnsafeURL(gettext("the URL must be 1 to %(max)s characters") % {"max": MAX_URL_LENGTH})
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise UnsafeURL(gettext("the URL must not contain spaces or control characters"))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeURL(gettext("not a URL: %(error)s") % {"error": exc}) from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise UnsafeURL(gettext("only http:// and https:// URLs are allowed"))
    if not parts.hostname:
        raise UnsafeURL(gettext("the URL has no host"))
    if parts.username is not None or parts.password is not None:
        raise UnsafeURL(gettext("the URL must not carry credentials: check the X-Kierki-Signature header instead"))
    return Target(url=url, scheme=scheme, host=parts.hostname, port=port or SCHEMES[scheme], address="")


def resolve(url: str, *, allow_private: bool | None = None) -> Target:
    """``parse`` plus the address to connect to. Every address the host resolves to must be
    public (not only the first: a name may hold a public and a private record), unless
    ``allow_private`` (default: the setting)."""
    target = parse(url)
    if allow_private is None:
        allow_private = settings.WEBHOOKS_ALLOW_PRIVATE
    try:
        found = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UnsafeURL(
            gettext("the host %(host)s does not resolve: %(error)s") % {"host": target.host, "error": exc}
        ) from None
    addresses = list(dict.fromkeys(info[4][0] for info in found))
    if not allow_private:
        for address in addresses:
            why = not_public(address)
            if why:
                raise refusal(target.host, address, why)
    return Target(url=url, scheme=target.scheme, host=target.host, port=target.port, address=addresses[0])


def refusal(host: str, address: str, kind: str) -> UnsafeURL:
    """The refusal of a host that resolves to a non-public ``address``. A club admin reads it (the
    API's 400, a delivery's error): it names the kind of address only when the URL holds the
    address itself; for a name, what our DNS answered (an internal address) is logged for the
    operators and left out of the message (issue 30, finding 8)."""
    if is_literal(host):
        return UnsafeURL(
            gettext("the host %(host)s is a %(kind)s address: webhooks are only sent to public addresses")
            % {"host": host, "kind": kind}
        )
    log.warning("webhook host %s refused: it resolves to %s, a %s address", host, address, kind)
    return UnsafeURL(
        gettext(
            "the host %(host)s does not resolve to public addresses only: webhooks are only sent to public addresses"
        )
        % {"host": host}
    )


def is_literal(host: str) -> bool:
    """Whether a URL's host is an IP address written out (``10.0.0.1``, ``::1``), not a name."""
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


# IPv6 prefixes that carry an IPv4 address inside (the router or gateway behind them forwards
# to that IPv4 address): the address is judged by the IPv4 address it embeds.
_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address wraps: IPv4-mapped (``::ffff:a.b.c.d``), IPv4-compatible
    (``::a.b.c.d``), 6to4 (``2002:AABB:CCDD::/16``), NAT64 (``64:ff9b::/96``, the last 32 bits;
    ``64:ff9b:1::/48``, RFC 8215, likewise) and Teredo (``2001::/32``: the server and the client)."""
    if ip.ipv4_mapped is not None:
        return (ip.ipv4_mapped,)
    if ip.sixtofour is not None:
        return (ip.sixtofour,)
    if ip.teredo is not None:
        return ip.teredo
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if any(ip in network for network in _NAT64):
        return (low32,)
    if ip in _IPV4_COMPATIBLE and int(ip) > 1:  # :: and ::1 stay the IPv6 unspecified and loopback
        return (low32,)
    return ()


def not_public(address: str) -> str | None:
    """What kind of non-public address ``address`` is (None: a public one). An IPv6 address that
    embeds IPv4 addresses is judged by them (``2002:7f00:1::`` is 127.0.0.1 behind 6to4)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # drop an IPv6 zone id
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = embedded_ipv4(ip)
        if embedded:
            return next(filter(None, map(_ip_not_public, embedded)), None)
    return _ip_not_public(ip)


def _ip_not_public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    for kind, flag in (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
        ("private", ip.is_private),
    ):  # private covers some above
        if flag:
            return kind
    return None if ip.is_global else "non-global"
