"""Every write: views, consumers, the admin and the task worker call these, and nothing else
writes to matches, moves, ratings or the audit log.

Each service is one transaction: lock the match row, read its state, check, write. A
submission carries the match version it was made against, so a double click or a second tab
is refused instead of applied twice. A refusal is a ``GameError`` with a code and its facts;
the edges word it (``games.presentation.refusals``). By concern:

    errors      GameError and its kinds
    core        the match row: lock, save (pushes and tasks with the commit), finish
    matches     create, join, play, abort, resign
    clocks      move clocks, the clock task, claims on abandoned matches
    computer    the computer's turn (run by the task worker)
    ratings     Elo changes, and undoing them
    presence    who has a socket open on a match
    rematches   offers to play a finished match again
    pairing     the quick pairing ("Find an opponent")
    challenges  one player inviting another
    arenas      tournaments: announce, join, pause, pair, end, cancel (arena_results: scores)
    follows     following players, blocking them
    events      the pushes that go out with the commit
    throttle    rate limits (moves, sign-ups)
    moderation  void, adjudicate, abort, suspend, reinstate (audited)
    fairplay    fair-play flags (raised by the worker), marks, warnings, refunds, appeals
    reports     players' reports and their handling
    chat        table talk: quick messages, free chat, mutes, reports of a line, time outs
    players     the player's own settings, bot accounts
    analysis    the analysis of a finished match (run by the task worker)
    puzzles     puzzles mined from it, and players' answers
    insights    each finished hand and choice of a match, for the players' insights
    training    players' flagged decisions by theme (weak spots), puzzle streaks
    hints       the hard computer's advice in casual matches against it
    guests      playing without an account, keeping the games, sweeping old guests
    api_tokens  personal API tokens
    accounts    signing up, and each name's look-alike form
    account_log what was done to a player's account (AccountEvent)
    account_sessions  where a player is logged in: sessions ended, new devices mailed
    leaving     deleting one's account; the file of one's data (made by the task worker)
    mail_addresses  a player's address, confirmed by a link; every mail sent (mail_send)
    second_factors  authenticator apps' codes and recovery codes (has_second_factor, check)
    translations players' suggestions for better wording, and the moderators' answers
    retention   every kind of row that grows by itself deleted past its time (the worker's sweep)
    operations  the errors the site answered (the operators' health page)
"""

from ..errors import Conflict, GameError, LimitReached, NotAllowed, NotFound, TooOften
from .account_log import account_event
from .account_sessions import (
    account_session_end,
    account_session_seen,
    account_sessions_end_others,
    device_login,
)
from .accounts import player_signup
from .analysis import analyses_queue, match_analyse
from .api_tokens import (
    api_token_create,
    api_token_revoke,
    api_token_used,
    api_tokens_revoke_all,
    token_digest,
)
from .arenas import (
    arena_cancel,
    arena_create,
    arena_end,
    arena_join,
    arena_pair,
    arena_pause,
    arena_player_remove,
    arena_start,
    may_create_arenas,
)
from .challenges import (
    CHALLENGE_LAPSE,
    challenge_accept,
    challenge_create,
    challenge_decline,
    challenge_lapse,
)
from .chat import (
    PHRASES,
    chat_mute,
    chat_remove,
    chat_report,
    chat_say,
    chat_say_arena,
    chat_settings_set,
    chat_timed_out_until,
    chat_timeout,
)
from .clocks import (
    DEFAULT_MOVE_SECONDS,
    MAX_MOVE_SECONDS,
    MIN_MOVE_SECONDS,
    clocks_resume,
    match_claim,
    match_expire,
)
from .fairplay import (
    appeal_answer,
    appeal_answer_read,
    appeal_make,
    flag_dismiss,
    player_close,
    player_mark,
    player_warn,
    raise_flag,
    warning_take,
)
from .follows import (
    block_create,
    block_delete,
    blocked,
    follow_create,
    follow_delete,
)
from .guests import guest_create, guest_keep, guest_seen, guests_sweep
from .hints import hint_for
from .insights import (
    insights_backfill,
    insights_forget,
    insights_losses,
    insights_public_set,
    insights_record,
)
from .leaving import account_delete, data_export_build, data_export_request, leaving_sweep
from .mail_addresses import (
    mail_address,
    mail_address_confirm,
    mail_address_set,
    mail_addresses_forget,
    mail_confirm_again,
    mail_kind_set,
    mail_kinds_set,
    mail_send,
)
from .matches import (
    Moved,
    computer_user,
    match_abort,
    match_create,
    match_create_computer,
    match_join,
    match_resign,
    move_apply,
)
from .moderation import (
    api_token_revoke_moderated,
    match_abort_moderated,
    match_adjudicate,
    match_void,
    player_reinstate,
    player_suspend,
)
from .pairing import match_find
from .players import (
    player_api_origins_set,
    player_bot_challenges_set,
    player_bot_set,
    player_language_set,
    player_look_set,
    player_puzzle_names_set,
    player_sound_set,
    player_table_pace_set,
    player_turn_mail_set,
)
from .presence import connection_close, connection_open, connection_room, connections_touch
from .puzzles import puzzle_answer, puzzles_confirm, puzzles_mine
from .ratings import rating_changes_reverse
from .rematches import REMATCH_LAPSE, rematch_accept, rematch_decline, rematch_lapse, rematch_offer
from .reports import report_close, report_create, report_player
from .retention import retention_sweep
from .second_factors import has_second_factor, second_factor_check
from .training import flagged_record, streak_answer, streak_start, training_backfill
from .translations import translation_review, translation_suggest, translations_apply

__all__ = [
    "PHRASES",
    "account_event",
    "chat_mute",
    "chat_remove",
    "chat_report",
    "chat_say",
    "chat_say_arena",
    "chat_settings_set",
    "chat_timed_out_until",
    "chat_timeout",
    "arena_cancel",
    "arena_create",
    "arena_end",
    "arena_join",
    "arena_pair",
    "arena_pause",
    "arena_player_remove",
    "arena_start",
    "may_create_arenas",
    "analyses_queue",
    "match_analyse",
    "puzzle_answer",
    "puzzles_confirm",
    "puzzles_mine",
    "insights_backfill",
    "insights_forget",
    "insights_losses",
    "insights_public_set",
    "insights_record",
    "flagged_record",
    "streak_answer",
    "streak_start",
    "training_backfill",
    "player_signup",
    "account_delete",
    "data_export_build",
    "data_export_request",
    "leaving_sweep",
    "retention_sweep",
    "mail_address",
    "mail_address_confirm",
    "mail_address_set",
    "mail_addresses_forget",
    "mail_confirm_again",
    "mail_kind_set",
    "mail_kinds_set",
    "mail_send",
    "account_session_end",
    "account_session_seen",
    "account_sessions_end_others",
    "device_login",
    "api_token_create",
    "api_token_revoke",
    "api_token_used",
    "api_tokens_revoke_all",
    "api_token_revoke_moderated",
    "token_digest",
    "player_api_origins_set",
    "player_bot_challenges_set",
    "player_puzzle_names_set",
    "player_turn_mail_set",
    "player_bot_set",
    "CHALLENGE_LAPSE",
    "REMATCH_LAPSE",
    "challenge_accept",
    "challenge_create",
    "challenge_decline",
    "challenge_lapse",
    "block_create",
    "block_delete",
    "blocked",
    "follow_create",
    "follow_delete",
    "match_find",
    "appeal_answer",
    "appeal_answer_read",
    "appeal_make",
    "flag_dismiss",
    "player_close",
    "player_mark",
    "player_warn",
    "raise_flag",
    "warning_take",
    "rematch_accept",
    "rematch_decline",
    "rematch_lapse",
    "rematch_offer",
    "DEFAULT_MOVE_SECONDS",
    "MAX_MOVE_SECONDS",
    "MIN_MOVE_SECONDS",
    "Conflict",
    "GameError",
    "hint_for",
    "guest_create",
    "guest_keep",
    "guest_seen",
    "guests_sweep",
    "LimitReached",
    "NotAllowed",
    "NotFound",
    "TooOften",
    "clocks_resume",
    "computer_user",
    "connection_close",
    "connection_open",
    "connection_room",
    "connections_touch",
    "match_abort",
    "match_abort_moderated",
    "match_adjudicate",
    "match_claim",
    "match_create",
    "match_create_computer",
    "match_expire",
    "match_join",
    "match_resign",
    "match_void",
    "Moved",
    "move_apply",
    "player_language_set",
    "player_look_set",
    "player_reinstate",
    "player_sound_set",
    "player_table_pace_set",
    "player_suspend",
    "rating_changes_reverse",
    "report_close",
    "report_create",
    "report_player",
    "has_second_factor",
    "second_factor_check",
    "translation_review",
    "translation_suggest",
    "translations_apply",
]
