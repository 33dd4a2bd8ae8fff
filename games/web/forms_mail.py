"""The account page's mail forms (the address, with the password; which mails), and the
password reset that mails only confirmed addresses, within their limits."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext_lazy as _

from ..services import mail_addresses

# The kinds of mail a player may turn off, as the account page and the unsubscription page
# name them.
KIND_WORDS = {
    mail_addresses.TURN: _("Emails when it is your turn in a correspondence match"),
    mail_addresses.ARENA: _("Emails when an arena you joined starts"),
    mail_addresses.NEW_LOGIN: _("Emails about a log-in from a new device"),
}


class MailAddressForm(forms.Form):
    """A new address (empty: none), with the account's password."""

    email = forms.EmailField(required=False, label=_("Email"))
    password = forms.CharField(label=_("Password"), strip=False, widget=forms.PasswordInput)


class MailKindsForm(forms.Form):
    """Which mails the player wants (mails about the account's safety always go)."""

    turn = forms.BooleanField(required=False, label=KIND_WORDS[mail_addresses.TURN])
    turn_each = forms.BooleanField(
        required=False, label=_("Every turn's email, not at most one a match a day")
    )
    arena = forms.BooleanField(required=False, label=KIND_WORDS[mail_addresses.ARENA])
    new_login = forms.BooleanField(required=False, label=KIND_WORDS[mail_addresses.NEW_LOGIN])


class MailPasswordResetForm(PasswordResetForm):
    """Django's, but the link goes only to a confirmed address, in one mail for every account
    that shares it, within the limits per address and per account
    (``mail_addresses.password_reset_targets``). The page after says the same whatever
    happened, as Django's does, so it tells nobody which addresses have an account."""

    def save(  # noqa: PLR0913 - Django's signature
        self, domain_override=None,
        subject_template_name="registration/password_reset_subject.txt",
        email_template_name="registration/password_reset_email.html", use_https=False,
        token_generator=default_token_generator, from_email=None, request=None,
        html_email_template_name=None, extra_email_context=None,
    ) -> None:  # fmt: skip
        targets = mail_addresses.password_reset_targets(address=self.cleaned_data["email"])
        if not targets:
            return
        domain = domain_override or (request.get_host() if request else "")
        links = [
            {
                "name": user.get_username(),
                "uid": urlsafe_base64_encode(force_bytes(user.pk)),
                "token": token_generator.make_token(user),
            }
            for user in targets
        ]
        first = links[0]
        context = {
            "email": targets[0].email, "domain": domain, "site_name": domain,
            "uid": first["uid"], "user": targets[0], "token": first["token"],
            "protocol": "https" if use_https else "http", "others": links[1:],
            **(extra_email_context or {}),
        }  # fmt: skip
        self.send_mail(
            subject_template_name, email_template_name, context, from_email,
            targets[0].email, html_email_template_name=html_email_template_name,
        )  # fmt: skip
