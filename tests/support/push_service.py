"""A local push service that speaks the Web Push protocol, for the tests of the site's
notifications (a browser here cannot reach a real one, so the protocol is what is tested).

A real HTTP server on a free port, in a thread of the test's process:

- RFC 8030: a message is a POST to a device's endpoint with a ``TTL`` header, answered 201
  Created with a ``Location``; a device made to be gone answers its status (404 or 410).
- RFC 8292: the ``Authorization: vapid t=<JWT>, k=<public key>`` header is required; ``k``
  must be the site's configured VAPID public key, the JWT's ES256 signature must verify
  against it, ``aud`` must be this service's origin, ``exp`` in the future (and within a day)
  and ``sub`` present: else 401 (missing or unreadable) or 403 (not the key, not valid).
- RFC 8291: the body (``Content-Encoding: aes128gcm``) is decrypted with the device's own
  private key and auth secret, made here as a browser makes them.

``messages`` holds what each device received (its decrypted payload), ``refused`` what was
refused and why; ``next_message`` waits for one.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_bytes(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def vapid_keys() -> tuple[str, str]:
    """A new VAPID key pair as the site's settings take it: (public, private), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public_bytes(key.public_key())), b64url(private)


@dataclass
class Device:
    """A browser's side of a subscription: its keys (RFC 8291) and the status it answers."""

    token: str
    status: int = 201
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))


@dataclass
class Message:
    endpoint: str
    payload: dict
    ttl: int
    claims: dict


class PushService:
    def __init__(self, vapid_public_key: str):
        self.vapid_public_key = vapid_public_key
        self.devices: dict[str, Device] = {}
        self.messages: queue.Queue[Message] = queue.Queue()
        self.refused: queue.Queue[tuple[int, str]] = queue.Queue()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self.server.server_port}"

    def start(self) -> PushService:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscription(self, status: int = 201) -> dict[str, str]:
        """A new device's subscription as its browser hands it to the page (``toJSON()``'s
        endpoint and keys); ``status``: what the service answers for it (404, 410: gone)."""
        device = Device(token=secrets.token_urlsafe(12), status=status)
        self.devices[device.token] = device
        return {
            "endpoint": f"{self.origin}/push/{device.token}",
            "p256dh": b64url(public_bytes(device.key.public_key())),
            "auth": b64url(device.auth),
        }

    def next_message(self, timeout: float = 20) -> Message:
        return self.messages.get(timeout=timeout)

    # The protocol.

    def vapid_refusal(self, header: str) -> tuple[int, str, dict]:
        """(0, "", claims) if the Authorization header is RFC 8292's and valid, else the
        status and why."""
        scheme, _, params = header.partition(" ")
        if scheme.lower() != "vapid":
            return 401, "not a vapid authorization", {}
        parts = dict(p.strip().split("=", 1) for p in params.split(",") if "=" in p)
        token, k = parts.get("t", ""), parts.get("k", "")
        if not token or not k:
            return 401, "t or k missing", {}
        if k != self.vapid_public_key:
            return 403, "not the site's public key", {}
        try:
            head, body, signature = token.split(".")
            header_json, claims = json.loads(unb64url(head)), json.loads(unb64url(body))
            raw = unb64url(signature)
            key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(k))
        except ValueError:
            return 401, "unreadable token", {}
        if header_json.get("alg") != "ES256" or len(raw) != 64:
            return 401, "not ES256", {}
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            key.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return 403, "bad signature", {}
        now = time.time()
        if claims.get("aud") != self.origin:
            return 403, f"aud {claims.get('aud')!r} is not {self.origin}", {}
        if not (now < float(claims.get("exp", 0)) <= now + 24 * 3600):
            return 403, "exp not within the next day", {}
        if not claims.get("sub"):
            return 403, "no sub", {}
        return 0, "", claims

    def _handler(self):
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet: the tests read the queues
                pass

            def answer(self, status: int, why: str = "") -> None:
                if status >= 400:
                    service.refused.put((status, why))
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"{service.origin}/message/{secrets.token_hex(4)}")
                self.send_header("Content-Length", str(len(why.encode())))
                self.end_headers()
                self.wfile.write(why.encode())

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                device = service.devices.get(self.path.removeprefix("/push/"))
                if device is None:
                    return self.answer(404, "no such subscription")
                status, why, claims = service.vapid_refusal(self.headers.get("Authorization", ""))
                if status:
                    return self.answer(status, why)
                ttl = self.headers.get("TTL", "")
                if not ttl.isdigit():
                    return self.answer(400, "no TTL")
                if device.status != 201:
                    return self.answer(device.status, "gone")
                if self.headers.get("Content-Encoding", "") != "aes128gcm":
                    return self.answer(415, "not aes128gcm")
                try:
                    plain = http_ece.decrypt(
                        body, private_key=device.key, auth_secret=device.auth, version="aes128gcm"
                    )
                    payload = json.loads(plain)
                except Exception as error:  # what cannot be decrypted is refused, and said why
                    return self.answer(400, f"undecryptable: {error!r}")
                endpoint = f"{service.origin}{self.path}"
                service.messages.put(Message(endpoint, payload, int(ttl), claims))
                return self.answer(201)

        return Handler


def push_device_listed(user) -> None:
    """A device of ``user`` in their settings' list (a phone's subscription, never sent to)."""
    from games.services.push import push_subscribe

    public, _ = vapid_keys()
    push_subscribe(
        user=user, endpoint=f"https://push.example.net/send/{secrets.token_urlsafe(8)}",
        p256dh=public, auth=b64url(os.urandom(16)), device="Chrome · Android",
    )  # fmt: skip
