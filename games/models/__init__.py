"""The site's models, one module per aggregate; every name is imported from here
(``from games.models import Match``), whichever module holds it.

- ``match``: a match (options, status, clock, snapshot), its moves and its analysis; the
  computer's strengths, the clocks' constants, the table's paces
- ``rating``: players' Elo ratings on each ladder, and each match's change to them
- ``social``: challenges, follows and blocks
- ``arena``: arenas, their players, invitations and log
- ``puzzle``: puzzles, puzzle ratings and attempts
- ``moderation``: reports and the moderators' audit log
- ``fairplay``: fair-play flags, marks, warnings and appeals
- ``chat``: table talk (quick messages and free chat at a match), mutes, moderators' time outs
- ``players``: a player's settings, bots, guests, the computer's accounts, names' skeletons
- ``api``: personal API tokens
- ``i18n``: players' suggested wordings of the site's messages
- ``insights``: each finished hand and choice of a player's matches, for their insights
- ``presence``: open sockets and streams, the task workers' heartbeats
- ``account``: the account log (what was done to a player's account)
- ``mail``: addresses waiting for their confirmation link, mails sent (for their limits)
- ``sessions``: where a player is logged in (their sessions) and the devices they used
- ``leaving``: deleted accounts' names kept from sign-ups for a while, players' data files
- ``operations``: the errors the site answered (for the operators' health page)
- ``training``: players' flagged decisions by puzzle theme (weak spots), puzzle streaks
- ``push``: players' devices with Web Push subscriptions, and the notifications sent
- ``base``: what several share (append-only rows)

The modules import only ``base`` and each other's non-model names (``MatchOptions``,
``Ladder``, ``TablePace``); a relation to another module's model is by name
(``"games.Match"``), so no module needs one that needs it back. All keep the app's label
("games") and their tables.
"""

from .account import AccountEvent
from .api import ApiToken
from .arena import Arena, ArenaAudit, ArenaInvite, ArenaPlayer
from .base import AppendOnly
from .chat import CHAT_LENGTH, ChatLine, ChatMute, ChatRoom, ChatTimeout
from .fairplay import FairPlayAppeal, FairPlayFlag, FairPlayMark, FairPlayWarning
from .i18n import TranslationSuggestion
from .insights import InsightDecision, InsightHand
from .leaving import DELETED_USERNAME, DataExport, NameReservation, is_deleted
from .mail import MailConfirmation, MailSent
from .match import (
    ABANDON_AFTER,
    DEALT_CARDS,
    FIRST_ACTION_SECONDS,
    HAND_END,
    HAND_END_BY_PACE,
    PACE_STAGES,
    Computer,
    EndReason,
    Match,
    MatchAnalysis,
    MatchOptions,
    MatchStatus,
    Move,
    RematchState,
    TablePace,
    closed_to_watchers,
    pace_ms,
)
from .moderation import ModerationAction, Report
from .operations import ServerError
from .players import (
    COMPUTER_USERNAME,
    GUEST_USERNAME,
    Guest,
    NameSkeleton,
    PlayerSettings,
    Theme,
    is_bot,
    is_computer,
    is_guest,
)
from .presence import Connection, WorkerBeat
from .push import PushKind, PushSent, PushSubscription
from .puzzle import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleTheme
from .rating import Ladder, PlayerRating, RatingChange
from .sessions import AccountSession, KnownDevice
from .social import Block, Challenge, DeclineReason, Follow
from .training import FlaggedDecision, PuzzleStreak

__all__ = [
    "ABANDON_AFTER", "COMPUTER_USERNAME", "DEALT_CARDS", "FIRST_ACTION_SECONDS",
    "GUEST_USERNAME", "HAND_END", "HAND_END_BY_PACE", "PACE_STAGES", "AccountEvent", "ApiToken",
    "AccountSession", "KnownDevice",
    "MailConfirmation", "MailSent",
    "DELETED_USERNAME", "DataExport", "NameReservation", "is_deleted",
    "AppendOnly", "Arena", "ArenaAudit", "ArenaInvite", "ArenaPlayer", "Block", "Challenge",
    "CHAT_LENGTH", "ChatLine", "ChatMute", "ChatRoom", "ChatTimeout",
    "FairPlayAppeal", "FairPlayFlag", "FairPlayMark", "FairPlayWarning",
    "Computer", "Connection", "DeclineReason", "EndReason", "Follow", "Guest", "Ladder",
    "Match", "MatchAnalysis", "MatchOptions", "MatchStatus", "ModerationAction", "Move",
    "NameSkeleton", "PlayerRating", "PlayerSettings", "Puzzle", "PuzzleAttempt",
    "PuzzleRating", "PuzzleTheme", "PushKind", "PushSent", "PushSubscription",
    "RatingChange", "RematchState", "Report", "TablePace",
    "ServerError", "InsightDecision", "InsightHand", "FlaggedDecision", "PuzzleStreak",
    "Theme", "TranslationSuggestion", "WorkerBeat", "closed_to_watchers", "is_bot",
    "is_computer", "is_guest", "pace_ms",
]  # fmt: skip
