"""The account page's section: leaving (the file of the player's data: being made, or ready
until when; deleting the account, with the password and a second factor's code if set)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from ...db.selectors.data_export import data_export_of
from ...services.second_factors import has_second_factor
from ..forms_leaving import AccountDeleteForm


def delete_form(request: HttpRequest, data=None) -> AccountDeleteForm:
    return AccountDeleteForm(data, second_factor=has_second_factor(request.user))


def context(request: HttpRequest) -> dict:
    """What the section's template (``partials/account_leaving.html``) reads."""
    return {
        "data_export": data_export_of(user=request.user),
        "leaving_form": delete_form(request),
        "deleted_name_days": settings.DELETED_NAME_DAYS,
        "data_export_hours": settings.DATA_EXPORT_HOURS,
    }
