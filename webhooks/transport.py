"""One POST to a receiver, to the address ``addresses.resolve`` checked (httpx).

The URL's host is replaced by that address; the ``Host`` header, TLS SNI and the certificate
check keep the registered name, so nothing is resolved twice. Redirects are not followed (a
3xx is a failure: it could point anywhere), proxies from the environment are ignored, and each
network step (connect, send, each read) has ``TIMEOUT`` seconds.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import httpx

from .addresses import Target

TIMEOUT = 5.0
ERROR_BYTES = 200  # of a refusing receiver's answer, kept in the delivery log
USER_AGENT = "Kierki-Webhooks/1"

# httpx logs every request's full URL at INFO; a receiver's URL may carry a token of its own.
logging.getLogger("httpx").setLevel(logging.WARNING)


@dataclass(frozen=True)
class Answer:
    status_code: int
    excerpt: str  # the start of the response body


def post(target: Target, body: bytes, headers: dict[str, str]) -> Answer:
    """Send ``body``; raises ``httpx.HTTPError`` on a network failure or a timeout."""
    url = httpx.URL(target.url)
    pinned = url.copy_with(host=target.address.split("%", 1)[0], fragment=None)
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    with httpx.Client(timeout=TIMEOUT, follow_redirects=False, trust_env=False) as client:
        request = client.build_request(
            "POST",
            pinned,
            content=body,
            extensions=extensions,
            headers={
                **headers,
                "Host": url.netloc.decode("ascii"),
                "User-Agent": USER_AGENT,
                "Content-Type": "application/json",
            },
        )
        response = client.send(request, stream=True)
        try:
            excerpt = b""
            for chunk in response.iter_raw():
                excerpt += chunk
                if len(excerpt) >= ERROR_BYTES:
                    break
        finally:
            response.close()
    return Answer(response.status_code, excerpt[:ERROR_BYTES].decode("utf-8", "replace"))
