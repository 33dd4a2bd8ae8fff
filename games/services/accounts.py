"""Accounts: signing up, and the look-alike form of each account's name that
``games.i18n.names.refusal`` looks a new name up in."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from ..i18n.names import skeleton
from ..models import NameSkeleton
from .mail_addresses import mail_address_set


def player_signup(*, username: str, password: str, email: str = ""):
    """A new account (the sign-up form has checked the name, the address and the password),
    as Django's ``UserCreationForm.save`` makes it; the address, if given, waits for the
    confirmation link mailed to it (``mail_addresses``)."""
    user = get_user_model()(username=username, email=email)
    user.clean()  # the name in NFKC, the address's domain in lower case, as the form left them
    address, user.email = user.email, ""
    user.set_password(password)
    with transaction.atomic():
        user.save()
    if address:
        mail_address_set(user=user, address=address)
    return user


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _remember_skeleton(sender, instance, created, update_fields=None, **kwargs) -> None:
    # Every new name and every rename, whichever path saved it (sign-up, a guest keeping its
    # games, the admin).
    if created or update_fields is None or "username" in update_fields:
        NameSkeleton.objects.update_or_create(
            user=instance, defaults={"skeleton": skeleton(instance.username)}
        )
