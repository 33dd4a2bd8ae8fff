"""A real SMTP server for the tests of the site's mail (aiosmtpd, on a free local port): the
site's SMTP backend delivers to it, and the test reads what arrived."""

from __future__ import annotations

import email
import email.policy
import socket
import threading
from email.message import EmailMessage

from aiosmtpd.controller import Controller


class Inbox:
    """aiosmtpd's handler: keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.arrived = threading.Condition()  # notified by the server's thread at each message

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd's
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.arrived:
            self.messages.append(parsed)
            self.arrived.notify_all()
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in m["To"]]

    def wait_for(self, count: int, seconds: float = 5.0) -> list[EmailMessage]:
        """The messages, once ``count`` have arrived (woken by the server's thread as each
        comes; ``seconds`` only bounds a failing test)."""
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.messages) >= count, timeout=seconds)
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
