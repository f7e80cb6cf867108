"""Private seat links: `/m/TOKEN/s/SIGNED` opens a match's live page with one seat's own hand
or rack. SIGNED is the seat and its expiry (seconds since the epoch), signed with itsdangerous
under the match's own random key (kept in the database, bot/storage/links.py, so any process
checks a link another made). The person the seat belongs to is part of the signature (its
salt) but never of the link: a link opens nothing once the seat changes hands (a replaced seat,
a forgotten player), and no link can be worked out from another, for another seat or match."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from itsdangerous import BadData, URLSafeSerializer

LINK_SECONDS = 12 * 3600  # a link's life; each DM carries a fresh one anyway
SIGNED_MAX = 200  # characters: anything longer is no link of ours


@dataclass(frozen=True)
class SeatPass:
    """What a link names, before it is checked against the match."""

    seat: int
    expires: int


def serializer(key: str, token: str, user_id: int) -> URLSafeSerializer:
    return URLSafeSerializer(key, salt=f"gamenight seat link {token} {user_id}",
                             signer_kwargs={"digest_method": hashlib.sha256})


def sign(key: str, token: str, seat: int, user_id: int, expires: int) -> str:
    """The signed part of the seat's link."""
    return str(serializer(key, token, user_id).dumps([seat, expires]))


def claimed(signed: str) -> SeatPass | None:
    """The seat and expiry a link claims, unchecked (None: not one of our links)."""
    if len(signed) > SIGNED_MAX:
        return None
    try:
        found, payload = URLSafeSerializer("").loads_unsafe(signed)
    except BadData:
        return None
    del found  # checked by `genuine`, against the seat's current holder
    if (not isinstance(payload, list) or len(payload) != 2
            or not all(type(item) is int for item in payload) or payload[0] < 0):
        return None
    return SeatPass(payload[0], payload[1])


def genuine(signed: str, key: str, token: str, user_id: int) -> bool:
    """Whether `signed` is exactly the link signed for this match and seat holder: any changed
    character refuses it (even one base64 would read the same)."""
    claim = claimed(signed)
    if claim is None:
        return False
    expected = sign(key, token, claim.seat, user_id, claim.expires)
    return hmac.compare_digest(expected.encode(), signed.encode())
