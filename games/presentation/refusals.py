"""Refusals in the player's language, and their HTTP status: the edges' half of errors.

The engine (standard library only) raises ``IllegalAction`` and the services raise
``GameError``, each with a ``code`` and the facts as ``params``; views, consumers and the admin
turn them into whole translated sentences here (the write layer speaks no player words).
"""

from __future__ import annotations

import math

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engine import IllegalAction
from ..engine.cards import CODES, SUIT_CODES
from ..errors import Conflict, GameError, LimitReached, NotAllowed, NotFound, Throttled, TooOften
from .cards import SUIT_NAMES, Card


def _verbs() -> dict[str, str]:
    """The refused action, in the words of its button (board.CONTROL_LABELS)."""
    return {
        "pass": _("You cannot pass now."),
        "order_up": _("You cannot order it up now."),
        "accept": _("You cannot accept it now."),
        "take_up": _("You cannot take it up now."),
        "leave": _("You cannot leave it now."),
        "name": _("You cannot name a suit now."),
        "joker": _("You cannot name the joker's suit now."),
        "discard": _("You cannot discard now."),
        "play": _("You cannot play a card now."),
    }


def _allowed() -> dict[tuple[str, ...], str]:
    """What may be done instead, by the kinds of action legal now (engine.rules.ALLOWED_WORDS)."""
    return {
        ("joker",): _("The joker was turned up: name its suit first."),
        ("pass", "order_up"): _("You may pass or order it up."),
        ("pass", "accept"): _("You may pass or accept it."),
        ("take_up", "leave"): _("You were ordered up: take it up or leave it."),
        ("take_up",): _("You were ordered up: take it up."),
        ("discard",): _("Discard a card first."),
        ("pass", "name"): _("You may pass or name a suit."),
        ("name",): _("Name a suit."),
        ("play",): _("Play a card."),
    }


def refusal_words(error: IllegalAction) -> str:
    """What to tell the player, in the active language."""
    code, params = error.code, error.params
    if code == "wrong_phase":
        # Two whole sentences: what was refused, and what may be done instead.
        return f"{_verbs()[params['verb']]} {_allowed()[tuple(params['allowed'])]}"
    if code == "must_follow":
        return _("You must follow %(suit)s") % {"suit": SUIT_NAMES[SUIT_CODES[params["suit"]]]}
    if code == "card_not_held":
        return _("You do not have %(card)s") % {"card": Card(CODES[params["card"]]).name}
    if code == "unknown":
        return _("“%(text)s” is not an action in this game") % {"text": params["text"]}
    simple = {
        "match_over": _("The match is over"),
        "not_an_action": _("That is not an action in this game"),
        "not_your_turn": _("It is not your turn"),
        "dealer_must_take_up": _("In this match the dealer must take up the upcard"),
        "turned_down": _("You cannot name the suit that was turned down"),
        "must_name": _("Stick the dealer: the dealer must name a suit"),
        "no_such_seat": _("There is no such seat: seats are 0 and 1"),
    }
    return simple.get(code) or str(error)


def _service_words() -> dict[str, str]:
    return {
        "no_such_match": _("There is no such match"),
        "no_such_puzzle": _("There is no such puzzle"),
        "puzzle_retired": _(
            "This puzzle was retired: counting every set of cards the opponent could hold showed"
            " that its best play was not clearly best. Answers already given to it still count."
        ),
        "bad_language": _("Choose one of the site's languages other than English."),
        "api_origin_invalid": _(
            "%(origin)s is not an origin: write the scheme (http or https), the host "
            "and the port if any, nothing after them"
        ),
        "no_such_message": _("The site has no such message: it may have changed since."),
        "no_such_suggestion": _("There is no such suggestion."),
        "suggestion_empty": _("Write the wording you suggest."),
        "suggestion_too_long": _("A suggestion has at most %(count)s characters."),
        "suggestion_placeholders": _(
            "Keep the message's placeholders exactly as they are: %(placeholders)s"
        ),
        "suggestion_percent": _(
            "The wording has a percent sign that is not one of the message's placeholders."
        ),
        "suggestion_markup": _(
            "Leave out <, >, & and straight quotation marks unless the English has them: "
            "the site's pages would read them as code."
        ),
        "suggestion_characters": _(
            "The wording has a character that cannot be shown, such as a control character."
        ),
        "suggestion_same": _("That is the wording the site has now."),
        "already_suggested": _(
            "You have a suggestion for this message waiting for a moderator already."
        ),
        "suggestions_per_hour": _("At most %(count)s suggestions an hour: thank you, and wait."),
        "suggestion_handled": _("This suggestion was answered already."),
        "no_puzzle_left": _("No puzzle is left for you: each analysed match adds some."),
        "not_an_option": _("That is not one of this puzzle's options: choose a call or a card."),
        "puzzle_answered": _("You have answered this puzzle already: try the next one."),
        "no_such_theme": _("There is no such puzzle theme: choose one from the list."),
        "insights_private": _("This player keeps their insights to themselves."),
        "no_such_period": _("There is no such period: choose 30 days, 90 days or all."),
        "streak_going": _("Your streak is going: answer the puzzle on the table."),
        "no_streak_going": _("No streak is going: start one."),
        "streak_moved_on": _(
            "That puzzle is no longer on your streak's table: answer the one shown now."
        ),
        "in_your_streak": _("This puzzle is on your streak's table: answer it there."),
        "not_playing": _("You are not playing in this match"),
        "bad_clock": _("The move clock must be from %(low)s to %(high)s seconds, or no clock"),
        "bad_days": _("A correspondence match gives %(days)s days a move"),
        "arena_name": _("Give the arena a name"),
        "arena_creator": _(
            "Arenas are created by moderators, and by players with at least %(count)s rated matches"
        ),
        "arena_minutes": _("An arena lasts %(minutes)s minutes"),
        "arena_start": _("An arena starts from now to %(days)s days ahead"),
        "arena_clock": _("An arena's matches have a move clock"),
        "arena_one_at_a_time": _("You have an arena announced or running already: one at a time"),
        "no_such_arena": _("There is no such arena"),
        "arena_over": _("This arena is over"),
        "arena_no_bots": _("This arena does not let bots play"),
        "arena_invited_only": _("This arena is by invitation only"),
        "arena_removed": _("A moderator removed you from this arena"),
        "arena_not_joined": _("You have not joined this arena"),
        "bad_strength": _("Choose easy, medium or hard"),
        "seat_taken": _("This match is no longer open: someone else took the seat"),
        "own_match": _("You cannot play against yourself: share the invite link"),
        "already_over": _("This match is already over"),
        "started": _("The match has started: resign instead"),
        "not_in_play": _("This match is not in play"),
        "too_late": _("Time ran out before that move: the match is over"),
        "over": _("This match is over"),
        "not_started": _("This match has not started yet"),
        "stale": _("The table has changed since you saw it: here is the current one"),
        "computer_stays": _("The computer never leaves the table: there is nothing to claim"),
        "has_clock": _("This match has a move clock: it ends by itself when time runs out"),
        "your_turn": _("It is your turn: there is nothing to claim"),
        "still_here": _("%(player)s is still at the table: give them a moment"),
        "claim_later": _("You may claim the match in %(minutes)s min %(seconds)s s"),
        "no_reason": _("Give a reason: it is kept in the audit log"),
        "already_void": _("This match is already void"),
        "adjudicate_in_play": _("Only a match in play can be adjudicated"),
        "winner_not_player": _("The winner must be one of the match's players"),
        "bad_report_reason": _("Choose a reason from the list"),
        "report_own_opponent": _("You can only report your opponent in a match you play"),
        "report_computer": _("The computer plays by the rules: there is nobody to report"),
        "report_handled": _("This report was already handled"),
        "report_self": _("You cannot report yourself"),
        "report_guest": _("Guests cannot send reports: sign up to report a player"),
        "already_reported_player": _(
            "You have already reported %(player)s: a moderator will look at that report"
        ),
        "open_matches_cap": _(
            "You already have %(count)s open matches waiting for an opponent: "
            "wait for one to start or call one off first"
        ),
        "computer_matches_cap": _(
            "You already have %(count)s matches in play against the computer: "
            "finish or resign one first"
        ),
        "too_many_sockets": _("Too many of your connections are open"),
        "origin_not_listed": _(
            "This web page may not call the API: its origin must first be listed on a "
            "player's settings page"
        ),
        "since_ahead": _("The match is at version %(version)s: it has no later one yet"),
        "watchers_cap": _("This match has as many watchers as it can take"),
        "already_reported": _(
            "You have already reported this match: a moderator will look at that report"
        ),
        "reports_per_hour": _(
            "You have sent %(count)s reports in the last hour: send the next one later"
        ),
        "rematch_only_finished": _("Only a finished match can be played again"),
        "rematch_offered": _("You have offered a rematch: wait for the answer"),
        "rematch_declined": _("%(player)s declined the rematch"),
        "no_rematch_offer": _("There is no rematch offer to accept"),
        "rematch_lapsed": _("The rematch offer has lapsed"),
        "no_rematch_to_answer": _("There is no rematch offer to answer"),
        "challenge_self": _("You cannot challenge yourself"),
        "not_challengeable": _("%(player)s cannot be challenged"),
        "challenge_blocked": _("%(player)s does not take challenges from you"),
        "match_blocked": _("%(player)s does not play matches with you"),
        "rematch_you_blocked": _("You blocked %(player)s: unblock them to play them again"),
        "follow_self": _("You cannot follow yourself"),
        "block_self": _("You cannot block yourself"),
        "not_followable": _("%(player)s cannot be followed"),
        "follow_blocked": _("%(player)s does not take follows from you"),
        "follows_cap": _("You follow %(count)s players, the most one may: unfollow some first"),
        "push_devices_cap": _("%(count)s devices are notified, the most one may: remove one first"),
        "already_challenged": _("You have challenged %(player)s already: wait for the answer"),
        "no_such_challenge": _("There is no such challenge"),
        "only_challenged_accepts": _("Only the challenged player can accept a challenge"),
        "challenge_closed": _("This challenge is no longer open"),
        "challenge_lapsed": _("This challenge has lapsed"),
        "bad_decline_reason": _(
            "“%(reason)s” is not a reason to decline a challenge: choose one from the list"
        ),
        "no_hints": _(
            "Hints are only for casual matches against the computer: "
            "not in rated matches, nor between people"
        ),
        "hint_not_your_turn": _("A hint is for your turn: wait for your opponent's move"),
        "unauthorized": _(
            "This request needs a valid API token: send it as “Authorization: Bearer <token>”"
        ),
        "scope_missing": _("This token may not do that: it lacks the “%(scope)s” scope"),
        "bad_scopes": _("Choose what the token may do: read, play or both"),
        "token_name": _("Give the token a name, so that you know it again"),
        "tokens_cap": _("You have %(count)s tokens already: revoke one first"),
        "no_such_token": _("There is no such token"),
        "mail_password_wrong": _("That is not your password: the address stays as it was"),
        "mail_link_invalid": _("This link is not valid: copy the whole link from the email"),
        "mail_link_used": _("This link was used already: it works once"),
        "mail_link_expired": _("This link has expired: ask for a new one on your account page"),
        "no_mail_pending": _("No address is waiting to be confirmed"),
        "no_such_mail_kind": _("There is no such kind of email"),
        "token_revoked": _("This token was revoked: the stream is closed"),
        "no_such_session": _("There is no such session of yours: it may have ended already"),
        "second_factor_wrong": _(
            "That code is not right: type the six digits your app shows now, or a recovery code"
        ),
        "second_factor_replayed": _(
            "That code was used already: wait for the next one your app shows"
        ),
        "second_factor_attempts": _("Too many codes were tried: wait %(wait)s and try again"),
        "second_factor_password_wrong": _("That is not your password: nothing was changed"),
        "second_factor_set_already": _("Your second factor is set up already"),
        "second_factor_not_begun": _("Start the set-up again: this one was not begun or has ended"),
        "second_factor_none": _("This account has no second factor"),
        "leaving_password_wrong": _("That is not your password: nothing was changed"),
        "already_deleted": _("This account has been deleted already"),
        "data_export_too_often": _(
            "You asked for your data less than a day ago: you may ask again in %(wait)s"
        ),
        "bot_has_matches": _("Only an account that has never played can become a bot account"),
        "no_bot_challenges": _("%(player)s does not take challenges from bots"),
        "no_bots": _("%(player)s does not play bots"),
        "bot_api_only": _("A bot account plays only through the API"),
        "guest_rated": _(
            "Guests play casual matches only: keep your games with an account to play rated ones"
        ),
        "fair_play_rated": _(
            "Your account is marked for fair play: you may play casual matches, not rated ones"
        ),
        "fair_play_rated_other": _(
            "%(player)s cannot play rated matches at the moment: challenge them to a casual one"
        ),
        "appeal_empty": _("Write what you want the moderators to know"),
        "appeal_too_long": _("Your appeal is too long: %(most)s characters at most"),
        # The fair-play queue's (moderators' only)
        "no_such_flag": _("There is no such fair-play flag"),
        "flag_resolved": _("This flag has been resolved already: nothing was changed"),
        "bad_mark_kind": _("Choose computer-assisted play or rating trading"),
        "already_marked": _("This player is marked already"),
        "bad_outcome": _("Choose to uphold the mark or to lift it"),
        "no_such_appeal": _("There is no such appeal"),
        "appeal_answered": _("This appeal has been answered already: nothing was changed"),
        "appeal_not_marked": _("There is no mark on your account to appeal against"),
        "appeal_made": _("You have appealed against this mark already: the moderators answer it"),
        "guest_challenge": _(
            "Guests cannot send challenges: keep your games with an account to challenge players"
        ),
        "guest_account": _("Guests cannot do that: keep your games with an account first"),
        "not_a_guest": _("This is an account already: its games are kept"),
        "name_taken": _("That name was taken a moment ago: choose another"),
        "no_guest_name": _("No guest name is free right now: try again in a moment"),
        "not_open_to_watch": _(
            "The players of this match chose not to let others watch it. "
            "Its result will be here once it is over."
        ),
        "chat_empty": _("Choose a quick message or write a message"),
        "chat_no_such_phrase": _("There is no such quick message"),
        "chat_too_long": _("A message has at most %(most)s characters"),
        "chat_not_here": _("There is no chat here"),
        "chat_free_off": _("Free chat is off: switch it on in settings to write messages"),
        "chat_timed_out": _("A moderator has stopped you from chatting for %(wait)s"),
        "chat_players_only": _("Only the two players talk here"),
        "chat_arena_players_only": _("Only the arena's players talk here"),
        "chat_nobody_to_read": _("There is nobody here to read it"),
        "chat_spectators_only": _(
            "The spectators' chat is for those watching: the players read it after the match"
        ),
        "chat_guest": _("Guests cannot chat: keep your games with an account first"),
        "chat_no_such_room": _("There is no such chat"),
        "chat_repeated": _("You have just said that"),
        "chat_bot_quick_only": _(
            "A bot account sends quick messages only, unless its opponent reads free chat"
        ),
        "chat_already_reported": _("You have already reported this message"),
        "chat_already_removed": _("This message was removed already"),
        "chat_timeout_length": _("A time out lasts from one minute to thirty days"),
    }


def rule_codes() -> list[str]:
    """The rules' reasons for refusing a move (an ``illegal`` refusal's ``reason``)."""
    special = ["wrong_phase", "must_follow", "card_not_held", "unknown"]
    return special + ["match_over", "not_an_action", "not_your_turn", "dealer_must_take_up",
                      "turned_down", "must_name", "no_such_seat"]  # fmt: skip


def service_codes() -> list[str]:
    """The codes of the services' refusals that have words here (the API's schema lists them)."""
    return list(_service_words())


def words(error: GameError | Throttled) -> str:
    """What to tell the player about a service's refusal (or a rate limit's, worded when it
    was counted), in the active language."""
    if isinstance(error, Throttled):
        wait = wait_words(error.retry_after)
        if error.code == "moving_fast":
            return _("You are moving faster than anyone needs to: wait %(wait)s and try again") % {
                "wait": wait
            }
        return _("Too many requests: wait %(wait)s") % {"wait": wait}
    if error.code == "illegal":
        return refusal_words(error.params["refusal"])
    if error.code == "bad_rules":  # the engine's own sentence (the forms offer valid options)
        return error.params["reason"]
    params = dict(error.params)
    if error.code == "api_origins_too_many":
        most = params["most"]
        return ngettext("At most %(most)d origin.", "At most %(most)d origins.", most) % {
            "most": most
        }
    if error.code == "too_often":
        return _("Too many requests: wait %(wait)s") % {"wait": wait_words(params["seconds"])}
    if error.code == "second_factor_attempts":
        params["wait"] = wait_words(params.pop("seconds"))
    if error.code == "data_export_too_often":  # until when: said as the time left
        left = (params.pop("until") - timezone.now()).total_seconds()
        params["wait"] = time_left_words(max(1, math.ceil(left)))
    if error.code == "chat_timed_out":  # until when: said as the time left
        left = (params.pop("until") - timezone.now()).total_seconds()
        params["wait"] = time_left_words(max(1, math.ceil(left)))
    if error.code == "claim_later":
        params["seconds"] = f"{params['seconds']:02d}"
    return _service_words()[error.code] % params if params else _service_words()[error.code]


def wait_words(seconds: int) -> str:
    """``75`` -> ``"2 minutes"``: how long to wait, as a person would say it."""
    if seconds < 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def time_left_words(seconds: int) -> str:
    """A long wait (a moderator's time out of chat), rounded up to the minute:
    ``"7 days"``, ``"1 hour 30 minutes"``; under an hour, as ``wait_words`` says it."""
    if seconds < 3600 - 59:
        return wait_words(seconds)
    days, left = divmod(math.ceil(seconds / 60), 24 * 60)
    hours, minutes = divmod(left, 60)
    parts = [ngettext("%(count)s day", "%(count)s days", days) % {"count": days}] if days else []
    if hours:
        parts.append(ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours})
    if minutes:
        parts.append(wait_words(minutes * 60))
    return " ".join(parts)


# How long a refusal for too many open connections asks a program to wait: a stream of its
# own must close first, which it sees at once; the database is asked again after a second.
SOCKETS_RETRY_AFTER = 5


def retry_after(error: TooOften) -> int:
    """Whole seconds before asking again, for a 429's Retry-After: the limit's own wait, or
    for a cap on what is open, a few seconds (an hour for the hourly caps)."""
    seconds = error.params.get("seconds")
    if seconds:
        return max(1, math.ceil(seconds))
    return 3600 if error.code.endswith("_per_hour") else SOCKETS_RETRY_AFTER


def status(error: GameError) -> int:
    """The HTTP status that answers a service's refusal."""
    kinds = ((NotFound, 404), (NotAllowed, 403), (Conflict, 409), (LimitReached, 409))
    for kind, code in (*kinds, (TooOften, 429)):
        if isinstance(error, kind):
            return code
    return 400
