"""The insights page's filters: a GET form, so a filtered page is a link."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..public.insights import DECKS, TARGETS, Filters


class InsightsFilterForm(forms.Form):
    period = forms.ChoiceField(
        choices=[
            ("30", _("Last 30 days")),
            ("90", _("Last 90 days")),
            ("365", _("Last year")),
            ("all", _("All time")),
        ],
        initial="all",
        required=False,
        label=_("Period"),
    )
    rated = forms.ChoiceField(
        choices=[("all", _("Rated and casual")), ("rated", _("Rated")), ("casual", _("Casual"))],
        initial="all",
        required=False,
        label=_("Matches"),
    )
    opponent = forms.ChoiceField(
        choices=[
            ("all", _("Anyone")),
            ("people", _("People")),
            ("computer", _("The computer")),
        ],
        initial="all",
        required=False,
        label=_("Against"),
    )
    deck = forms.TypedChoiceField(
        choices=[("", _("Any deck")), *((d, _("%(cards)s cards") % {"cards": d}) for d in DECKS)],
        coerce=int,
        empty_value=None,
        required=False,
        label=_("Deck"),
    )
    target = forms.TypedChoiceField(
        choices=[
            ("", _("Any target")),
            *((t, _("%(points)s points") % {"points": t}) for t in TARGETS),
        ],
        coerce=int,
        empty_value=None,
        required=False,
        label=_("Play to"),
    )

    def filters(self) -> Filters:
        """The filters chosen (call after ``is_valid``)."""
        data = self.cleaned_data
        return Filters(
            period=data.get("period") or "all",
            rated=data.get("rated") or "all",
            opponent=data.get("opponent") or "all",
            deck=data.get("deck"),
            target=data.get("target"),
        )


def insights_filters(query) -> tuple[Filters | None, InsightsFilterForm]:
    """The filters a query asks for, or None (and the form with its errors) if it cannot be
    read. No query: every match."""
    form = InsightsFilterForm(query or None)
    if not form.is_bound:
        return Filters(), InsightsFilterForm()
    return (form.filters() if form.is_valid() else None), form
