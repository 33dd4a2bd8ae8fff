"""The second factor's forms: a code (from the authenticator app, or a recovery code), and
the password with a code for turning it off or making new recovery codes. Each form has ids
of its own: several share the account page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class SecondFactorCodeForm(forms.Form):
    """A code: the app's six digits, or (``recovery``) one of the recovery codes too."""

    code = forms.CharField(
        label=_("Code"),
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "spellcheck": "false"}),
    )

    def __init__(self, *args, recovery: bool = True, ids: str = "second-factor", **kwargs):
        kwargs.setdefault("auto_id", f"{ids}-%s")
        super().__init__(*args, **kwargs)
        code = self.fields["code"]
        if recovery:
            code.help_text = _("The six digits your app shows now, or one of your recovery codes.")
        else:
            code.help_text = _("The six digits your app shows now.")
            code.widget.attrs["inputmode"] = "numeric"


class SecondFactorGuardForm(SecondFactorCodeForm):
    """The password and a code: what turning the second factor off or making new recovery
    codes asks for."""

    password = forms.CharField(label=_("Password"), strip=False, widget=forms.PasswordInput)

    field_order = ["password", "code"]
