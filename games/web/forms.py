from __future__ import annotations

from datetime import UTC, timedelta
from datetime import timezone as dt_timezone

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from ..arena import default_start
from ..db import selectors
from ..i18n import names
from ..models import ApiToken, Challenge, Computer, Report, TablePace
from ..services.clocks import DEFAULT_MOVE_SECONDS
from ..services.players import API_ORIGINS_MOST, api_origin


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False,
        label=_("Email"),
        help_text=_("Optional: only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str:
        # Django's: brought to NFKC, refused if taken in any case (then None, error added).
        username = super().clean_username()
        refused = username and names.refusal(username)
        if refused:
            raise forms.ValidationError(refused)
        return username


class LoginForm(AuthenticationForm):
    """Django's log-in form, with its name's length checked: Django sets the field's
    ``max_length`` after the field is built, so no validator enforces it, and a longer name
    would reach the lock-out records (django-axes: 255 characters) and fail there."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))

    def clean(self):
        try:
            return super().clean()
        except forms.ValidationError as refused:
            # Django says a suspended player's right password is wrong, which sends them to a
            # password reset that cannot help. Whoever knows the password is told the truth.
            suspended = self._suspended() if refused.code == "invalid_login" else None
            if suspended is not None:
                reason = selectors.suspension_reason(user=suspended)
                raise forms.ValidationError(
                    _("This account is suspended. The moderators gave this reason: %(reason)s")
                    % {"reason": reason or "—"},
                    code="suspended",
                ) from None
            raise

    def _suspended(self):
        """The inactive account these name and password are right for, or None."""
        name, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if not name or not password:
            return None
        user = get_user_model()._default_manager.filter(username=name, is_active=False).first()
        return user if user is not None and user.check_password(password) else None


class MatchOptionsForm(forms.Form):
    """The rules of a match (docs/RULES.md, "Match options"), whoever the opponent is."""

    deck = forms.TypedChoiceField(
        choices=[
            (24, _("24 cards (9 to ace)")),
            (32, _("32 cards (7 to ace)")),
            (25, _("25 cards (with the joker)")),
        ],
        coerce=int,
        initial=24,
        label=_("Deck"),
    )
    target = forms.TypedChoiceField(
        choices=[
            (5, _("5 points")),
            (7, _("7 points")),
            (10, _("10 points")),
            (11, _("11 points")),
        ],
        coerce=int,
        initial=10,
        label=_("Play to"),
    )
    stick_the_dealer = forms.BooleanField(
        required=False,
        label=_("Stick the dealer"),
        help_text=_("The dealer may not pass in round two."),
    )
    dealer_must_take_up = forms.BooleanField(
        required=False,
        label=_("Dealer must take up"),
        help_text=_("Ordered up, the dealer must take the upcard."),
    )


class MatchCreateForm(MatchOptionsForm):
    days_per_move = forms.TypedChoiceField(
        choices=[
            ("", _("Live: both at the table")),
            (1, _("Correspondence: 1 day a move")),
            (3, _("Correspondence: 3 days a move")),
            (7, _("Correspondence: 7 days a move")),
        ],
        coerce=int,
        empty_value=None,
        required=False,
        label=_("Pace"),
        help_text=_(
            "In a correspondence match each of you plays at your own pace, and is told by "
            "email when it is your turn. The move clock is for live matches."
        ),
    )
    move_seconds = forms.TypedChoiceField(
        choices=[
            (30, _("30 seconds a move")),
            (60, _("1 minute a move")),
            (120, _("2 minutes a move")),
            (300, _("5 minutes a move")),
            ("", _("No clock")),
        ],
        coerce=int,
        empty_value=None,
        required=False,
        initial=DEFAULT_MOVE_SECONDS,
        label=_("Move clock"),
        help_text=_(
            "Run out of time and you lose the match. "
            "Without a clock, a player who leaves can be claimed against after 5 minutes."
        ),
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Rated"),
        help_text=_("Rated matches change both players' ratings."),
    )
    spectators_allowed = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Let others watch"),
        help_text=_("Spectators never see a hand."),
    )

    def clean(self) -> dict:
        data = super().clean()
        if data.get("days_per_move"):
            data["move_seconds"] = None  # days a move are a correspondence match's clock
        return data


# The farthest a time zone is from UTC (Kiribati's +14:00), in minutes.
UTC_OFFSET_MOST = 14 * 60


class ArenaForm(MatchOptionsForm):
    """A new arena: its name, start and length, and its matches' options (a short target and
    a live clock suit an arena)."""

    name = forms.CharField(max_length=60, label=_("Name"))
    # The time as typed; static/js/arena_time.js shows it in the browser's time zone and
    # sends that zone's offset from UTC (minutes east) in utc_offset. Without it: UTC.
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        help_text=_("The time is in UTC."),
        widget=forms.DateTimeInput(
            attrs={
                "type": "datetime-local",
                "data-local-time": "field",
                "data-local-help": _("The time is in your time zone, %(zone)s."),
            },
            format="%Y-%m-%dT%H:%M",
        ),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    utc_offset = forms.CharField(required=False, max_length=5, widget=forms.HiddenInput)
    minutes = forms.TypedChoiceField(
        choices=[(30, _("30 minutes")), (60, _("1 hour")), (90, _("90 minutes"))],
        coerce=int,
        initial=60,
        label=_("Length"),
    )
    move_seconds = forms.TypedChoiceField(
        # The new match form's live clocks up to two minutes: an arena's matches are quick.
        choices=[c for c in MatchCreateForm.base_fields["move_seconds"].choices
                 if c[0] in (30, 60, 120)],
        coerce=int,
        initial=30,
        label=_("Move clock"),
    )  # fmt: skip
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))
    invited_only = forms.BooleanField(
        required=False,
        label=_("By invitation only"),
        help_text=_("Only the players named below may join."),
    )
    invited = forms.CharField(
        required=False,
        max_length=2000,
        label=_("Players invited"),
        help_text=_("Their names, separated by commas or spaces."),
    )
    bots_allowed = forms.BooleanField(required=False, label=_("Bots may join"))
    field_order = ["name", "starts_at", "minutes"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target"].initial = 5
        if not self.is_bound:  # as UTC's wall time (naive: shown as it is, whatever TIME_ZONE)
            start = default_start(timezone.now().astimezone(UTC))
            self.fields["starts_at"].initial = start.replace(tzinfo=None)
            self.fields["starts_at"].widget.attrs["data-utc"] = start.isoformat()

    def clean(self) -> dict:
        data = super().clean()
        offset = data.pop("utc_offset", "") or "0"
        try:
            minutes = int(offset)
        except ValueError:
            minutes = None
        if minutes is None or abs(minutes) > UTC_OFFSET_MOST:
            raise forms.ValidationError(_("The time zone sent with the start time is unknown."))
        start = data.get("starts_at")
        if start is not None:
            # The wall time typed (Django read it in TIME_ZONE), at that offset from UTC.
            typed = timezone.make_naive(start) if timezone.is_aware(start) else start
            zone = dt_timezone(timedelta(minutes=minutes))
            data["starts_at"] = typed.replace(tzinfo=zone).astimezone(UTC)
        return data

    def clean_invited(self) -> list:
        names = self.cleaned_data["invited"].replace(",", " ").split()
        found = []
        for name in names[:200]:
            user = selectors.user_by_name(name)
            if user is None:
                raise forms.ValidationError(
                    _("There is no player named %(name)s.") % {"name": name}
                )
            found.append(user)
        return found


class TurnMailForm(forms.Form):
    """The settings' mail for correspondence matches: whether to send it (the address is set
    and confirmed on the account page)."""

    allowed = forms.BooleanField(
        required=False, label=_("Email me when it is my turn in a correspondence match")
    )


class TablePaceForm(forms.Form):
    """The settings' table pace: how long a hand's end is shown, and a forced card played."""

    pace = forms.ChoiceField(
        choices=TablePace.choices, widget=forms.RadioSelect, label=_("Pace of a hand's end")
    )
    forced_card = forms.BooleanField(
        required=False, label=_("Play a forced card for me (when only one card may be played)")
    )


class ChatSettingsForm(forms.Form):
    """The settings' chat: free chat (messages in the players' own words; the quick messages
    are always there) and a sound when a message arrives. A guest cannot turn free chat on."""

    free_chat = forms.BooleanField(
        required=False, label=_("Free chat"),
        help_text=_(
            "Read and write messages in your own words. Off, you read and send the quick "
            "messages only, each read in its reader's language."
        ),
    )  # fmt: skip
    chat_sound = forms.BooleanField(required=False, label=_("A sound when a message arrives"))

    def __init__(self, *args, guest: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if guest:
            self.fields["free_chat"].disabled = True  # what is posted is ignored: it stays off
            self.fields["free_chat"].help_text = _(
                "Keep your games with an account to switch free chat on."
            )


def quick_challenge() -> dict:
    """What a challenge from the list of followed players sends: the new match form's first
    options (``quick_options``, for the words) as the form posts them (``quick_fields``)."""
    form = MatchCreateForm(prefix="challenge")
    fields = {name: field.initial for name, field in form.fields.items()}
    return {
        "quick_options": Challenge(**{k: v for k, v in fields.items() if v is not None}),
        # A ticked box posts "on"; an unticked one is left out.
        "quick_fields": [
            (form[name].html_name, "on" if value is True else value)
            for name, value in fields.items()
            if value not in (None, False)
        ],
    }


class ComputerMatchForm(MatchOptionsForm):
    strength = forms.ChoiceField(
        choices=Computer.choices,
        initial=Computer.MEDIUM,
        widget=forms.RadioSelect,
        label=_("Computer"),
    )
    field_order = ["strength"]


class FindOpponentForm(forms.Form):
    """The lobby's quick pairing: the deck and the target; the rest as a new match has it."""

    deck = MatchOptionsForm.base_fields["deck"]
    target = MatchOptionsForm.base_fields["target"]


class MoveForm(forms.Form):
    action = forms.CharField(max_length=16)
    version = forms.IntegerField(min_value=0, max_value=2**31)


class ReportForm(forms.Form):
    reason = forms.ChoiceField(choices=Report.Reason.choices)
    details = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )


class ApiTokenForm(forms.Form):
    """A new personal API token: a name to know it by, and what it may do."""

    name = forms.CharField(
        max_length=60,
        label=_("Token name"),
        help_text=_("What the token is for, e.g. the name of your program."),
    )
    scopes = forms.MultipleChoiceField(
        choices=ApiToken.Scope.choices,
        initial=[ApiToken.Scope.READ, ApiToken.Scope.PLAY],
        widget=forms.CheckboxSelectMultiple,
        label=_("It may"),
    )


class ApiOriginsForm(forms.Form):
    """The web pages (their origins) whose scripts may call the API with the player's tokens."""

    origins = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "autocomplete": "off"}),
        label=_("Web pages that may use my tokens"),
        help_text=_(
            "One origin a line, as https://example.com or http://localhost:8080: the scripts of "
            "those pages may call the API with your tokens. Leave it empty for none."
        ),
    )

    def clean_origins(self) -> list[str]:
        lines = [line.strip() for line in self.cleaned_data["origins"].splitlines()]
        origins, errors = [], []
        for line in filter(None, lines):
            origin = api_origin(line)
            if origin is None:
                errors.append(forms.ValidationError(
                    _("%(origin)s is not an origin: write the scheme (http or https), the host "
                      "and the port if any, nothing after them"),
                    params={"origin": line[:100]},
                ))  # fmt: skip
            elif origin not in origins:
                origins.append(origin)
        if len(origins) > API_ORIGINS_MOST:
            errors.append(forms.ValidationError(
                ngettext_lazy("At most %(most)d origin.", "At most %(most)d origins.", "most"),
                params={"most": API_ORIGINS_MOST},
            ))  # fmt: skip
        if errors:
            raise forms.ValidationError(errors)
        return origins


class SuggestionForm(forms.Form):
    """A player's wording for one message (the review page's form): each field read as text,
    a null character refused in words (Django's own validator, in our catalogues), the
    lengths cut where the service would refuse them."""

    language = forms.CharField(max_length=10)
    msgid = forms.CharField(max_length=5000, strip=False)
    msgctxt = forms.CharField(max_length=200, required=False, strip=False)
    text = forms.CharField(required=False, strip=False)
    note = forms.CharField(required=False)
    credit = forms.BooleanField(required=False)

    def error_words(self) -> str:
        """The first error, as a sentence for the page."""
        return next(iter(self.errors.values()))[0]
