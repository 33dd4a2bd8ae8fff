"""A real SMTP server for the tests of the site's mail (aiosmtpd, on a free local port): the
site's SMTP backend delivers to it, and the test reads what arrived."""

from __future__ import annotations

import email
import email.policy
import socket
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller


class Inbox:
    """aiosmtpd's handler: keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd's
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append(parsed)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in m["To"]]

    def wait_for(self, count: int, seconds: float = 5.0) -> list[EmailMessage]:
        """The messages, once ``count`` have arrived (the server's thread takes a moment)."""
        deadline = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.messages


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def smtp_server():
    """Start a server; yields (inbox, port) and stops it."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield inbox, controller.port
    finally:
        controller.stop()
