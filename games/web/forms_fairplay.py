"""The marked player's appeal (settings page, templates/partials/fairplay_settings.html)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..services.fairplay import APPEAL_LENGTH


class AppealForm(forms.Form):
    text = forms.CharField(
        label=_("Your appeal"),
        max_length=APPEAL_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5, "dir": "auto"}),
    )
