"""Reads shaped for pages, by subject. Callers import this package (``selectors.lobby_lists``);
each name lives in one of its modules:

    matches   open and active matches, versions, history, moves, the stored analysis
    players   records, ratings, the leaderboard, settings
    connections  who is at a match, the bot accounts online, the task workers alive
    lobby     the lobby's lists and challenges
    arenas    arenas announced and running, standings, a player's arenas
    chat      the lines of a match's (or an arena's) chat each reader reads
    follows   the players one follows, online or not, and those one blocked
    limits    the caps on rated play between two players
    fairplay  who is marked, the fair-play queue, a flag's evidence, a player's standing
    puzzles   the next puzzle, the day's puzzle, a player's answers
    insights  a player's figures (and their rating band's) from their hands and decisions
    training  a player's weak spots, results by puzzle theme, puzzle streak
    translations  players' suggestions for the site's words, and who is thanked
    workers   the task queues' due tasks and lag, the workers' heartbeats (metrics)
    operations  the workers alive and dead, sockets open, errors answered (the health page)
"""

from .arenas import (
    Standing,
    arena_by_id,
    arena_live,
    arena_standings,
    arenas_listed,
    arenas_of,
    arenas_soon,
)
from .chat import (
    CHAT_SHOWN,
    arena_chat_lines,
    chat_line_visible,
    chat_lines,
    chat_muted,
    may_talk_in_arena,
    reads_free_chat,
)
from .connections import (
    PRESENCE_TIMEOUT,
    BotOnline,
    Presence,
    bots_online,
    live_workers,
    presence,
)
from .fairplay import (
    appeals_waiting,
    fair_play_history,
    fair_play_marked,
    fair_play_notices,
    fair_play_queue,
    fair_play_standing,
    marked_players,
    refunded_matches,
)
from .follows import Followed, blocked_players, follow_state, followed_seeks, following
from .insights import insights, insights_public_mine, insights_visible
from .limits import rated_today_capped, rated_today_capped_opponents, suspicious_pairs
from .lobby import (
    CHALLENGE_ANSWER_SHOWN,
    LOBBY_OPEN_MATCHES,
    LOBBY_WATCH_MATCHES,
    lobby_lists,
    lobby_mine,
    lobby_open,
    pending_challenges,
    watch_matches,
)
from .matches import (
    HISTORY_PAGE_SIZE,
    JUST_STARTED,
    has_matches,
    match_analysis,
    match_for_viewer,
    match_history,
    match_just_started,
    match_move_rows,
    match_moves,
    match_versions,
    my_active_matches,
    my_open_matches,
    my_turn_matches,
    open_matches,
)
from .operations import (
    ErrorCount,
    RecentErrors,
    WorkerHealth,
    errors_recent,
    sockets_open,
    workers_health,
)
from .players import (
    LEADERBOARD_MIN_MATCHES,
    bot_ids,
    bots_may_challenge,
    chat_sound_on,
    leaderboard,
    rating_history,
    rating_of,
    rating_points,
    record,
    sound_on,
    suspended_account,
    suspension_reason,
    table_look,
    table_pace,
    table_pace_slowest,
    turn_mail_wanted,
    user_by_name,
)
from .puzzles import (
    NEAREST,
    puzzle_attempt,
    puzzle_daily,
    puzzle_names_allowed,
    puzzle_names_mine,
    puzzle_next,
    puzzle_rating_history,
    puzzle_rating_of,
    puzzle_source,
    puzzle_visible,
)
from .training import ThemeResult, WeakSpot, streak_of, theme_results, weak_spots
from .translations import translation_credits, translation_suggestions_open
from .workers import Queue, task_queues

__all__ = [
    "appeals_waiting",
    "fair_play_history",
    "fair_play_marked",
    "fair_play_notices",
    "fair_play_queue",
    "fair_play_standing",
    "marked_players",
    "refunded_matches",
    "insights",
    "insights_public_mine",
    "insights_visible",
    "CHAT_SHOWN", "chat_sound_on", "chat_line_visible", "chat_lines", "chat_muted",
    "reads_free_chat", "arena_chat_lines", "may_talk_in_arena",
    "Standing", "arena_by_id", "arena_live", "arena_standings", "arenas_listed", "arenas_of",
    "arenas_soon",
    "CHALLENGE_ANSWER_SHOWN", "HISTORY_PAGE_SIZE", "JUST_STARTED", "LEADERBOARD_MIN_MATCHES",
    "NEAREST",
    "LOBBY_OPEN_MATCHES", "LOBBY_WATCH_MATCHES", "PRESENCE_TIMEOUT",
    "BotOnline", "Followed", "Presence", "blocked_players", "follow_state", "followed_seeks",
    "following", "bot_ids", "bots_may_challenge", "bots_online", "has_matches",
    "leaderboard",
    "live_workers", "lobby_lists", "lobby_mine", "lobby_open", "match_analysis",
    "match_for_viewer", "match_history",
    "match_just_started", "match_move_rows", "match_moves", "match_versions", "my_active_matches",
    "my_open_matches", "my_turn_matches", "open_matches", "pending_challenges", "presence",
    "puzzle_attempt",
    "puzzle_daily", "puzzle_names_allowed", "puzzle_names_mine", "puzzle_next",
    "puzzle_rating_history", "puzzle_rating_of", "puzzle_source", "puzzle_visible",
    "ThemeResult", "WeakSpot", "streak_of", "theme_results", "weak_spots",
    "rated_today_capped",
    "rated_today_capped_opponents", "rating_history", "rating_of", "rating_points", "record",
    "sound_on",
    "suspended_account",
    "suspension_reason", "suspicious_pairs", "table_look", "table_pace", "table_pace_slowest",
    "translation_credits",
    "translation_suggestions_open", "turn_mail_wanted", "user_by_name", "watch_matches",
    "Queue", "task_queues",
    "ErrorCount", "RecentErrors", "WorkerHealth", "errors_recent", "sockets_open",
    "workers_health",
]  # fmt: skip
