"""The account page's deletion form: the password, and a code when the player has a second
factor."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class AccountDeleteForm(forms.Form):
    password = forms.CharField(label=_("Password"), strip=False, widget=forms.PasswordInput)
    code = forms.CharField(
        label=_("Code"),
        help_text=_("The six digits your app shows now, or one of your recovery codes."),
        required=False,
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "spellcheck": "false"}),
    )

    def __init__(self, *args, second_factor: bool = False, **kwargs):
        kwargs.setdefault("auto_id", "leaving-%s")  # the page's other forms ask a password too
        super().__init__(*args, **kwargs)
        if second_factor:
            self.fields["code"].required = True
        else:
            del self.fields["code"]
