from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import Report


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional: only used to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class MatchCreateForm(forms.Form):
    deck = forms.TypedChoiceField(
        choices=[
            (24, "24 cards (9 to ace)"),
            (32, "32 cards (7 to ace)"),
            (25, "25 cards (with the joker)"),
        ],
        coerce=int,
        initial=24,
    )
    target = forms.TypedChoiceField(
        choices=[(5, "5 points"), (7, "7 points"), (10, "10 points"), (11, "11 points")],
        coerce=int,
        initial=10,
        label="Play to",
    )
    stick_the_dealer = forms.BooleanField(
        required=False, help_text="The dealer may not pass in round two."
    )
    dealer_must_take_up = forms.BooleanField(
        required=False, help_text="Ordered up, the dealer must take the upcard."
    )
    rated = forms.BooleanField(
        required=False, initial=True, help_text="Rated matches change both players' ratings."
    )
    spectators_allowed = forms.BooleanField(
        required=False,
        initial=True,
        label="Let others watch",
        help_text="Spectators never see a hand.",
    )


class MoveForm(forms.Form):
    action = forms.CharField(max_length=16)
    version = forms.IntegerField(min_value=0, max_value=2**31)


class ReportForm(forms.Form):
    reason = forms.ChoiceField(choices=Report.Reason.choices)
    details = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )
