"""A real SMTP server for the tests of the site's mail (aiosmtpd, on a free local port): the
site's SMTP backend delivers to it, and the test reads what arrived."""

from __future__ import annotations

import email
import email.policy
import re
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


CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/mail/confirm/[^/\s]+/)")


def confirm_link(message: EmailMessage) -> str:
    """The path of the confirmation link in an address's confirmation mail."""
    return CONFIRM_LINK.search(message.get_content()).group(1)


def address_confirmed(user, address: str, inbox: Inbox | None = None):
    """Give ``user`` the ``address`` and confirm it as its owner would: the link from the
    mail that came (the real SMTP server's ``inbox``, else Django's outbox), opened and its
    button pressed, with no log-in. The confirmation mail is taken out of the inbox (read),
    so a test counts only the mails that follow. The user, as the database now has it."""
    from django.core import mail
    from django.test import Client

    from games import services

    services.mail_address_set(user=user, address=address)
    if inbox is not None:
        message = [m for m in inbox.wait_for(1) if address in m["To"]][-1]
        inbox.messages.remove(message)
        link = confirm_link(message)
    else:
        sent = [m for m in mail.outbox if address in m.to][-1]
        mail.outbox.remove(sent)
        link = CONFIRM_LINK.search(sent.body).group(1)
    client = Client()
    assert client.get(link).status_code == 200  # the page with the button: nothing done yet
    assert client.post(link).status_code == 200
    user.refresh_from_db()
    assert user.email == address
    return user


def mails_aged(seconds: float) -> None:
    """Pretend the mails sent so far went ``seconds`` earlier (the limits that count them:
    a match's turn mails, one a day)."""
    from datetime import timedelta

    from django.db.models import F

    from games.models import MailSent

    MailSent.objects.update(sent_at=F("sent_at") - timedelta(seconds=seconds))
