"""Remove a player's second factor, for an operator whose player (or who) lost both the phone
and the recovery codes: the next log-in asks for the password alone, and staff must set a
new one up before the admin opens. Logged in the player's account log, with the operator's
name (``--operator``, else the shell's user)."""

from __future__ import annotations

import getpass

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.services import second_factors


class Command(BaseCommand):
    help = "Remove a player's second factor (a lost phone and lost recovery codes); audited."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--operator", default="", help="who does this, for the log")

    def handle(self, *args, username: str, operator: str, **options) -> None:
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            raise CommandError(f"No player is named {username!r}.")
        who = operator or getpass.getuser()
        if second_factors.second_factor_reset(user=user, operator=who):
            self.stdout.write(
                f"Removed the second factor of {user.username}: their next log-in asks for "
                "the password alone. Logged in their account log."
            )
        else:
            self.stdout.write(f"{user.username} has no second factor: nothing to do.")
