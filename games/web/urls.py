from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import converters, forms  # noqa: F401  (converters registers <match:>)
from .views import accounts, lobby, match, players, puzzles, settings, site, translations

urlpatterns = [
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("language/", settings.language_set, name="language_set"),
    path("settings/sound", settings.sound_set, name="sound_set"),
    path("settings/look", settings.look_set, name="look_set"),
    path("settings/", settings.settings_page, name="settings"),
    path("settings/tokens", settings.api_token_create, name="api_token_create"),
    path(
        "settings/tokens/<id:token_id>/revoke", settings.api_token_revoke, name="api_token_revoke"
    ),
    path("settings/api-origins", settings.api_origins_set, name="api_origins_set"),
    path("settings/bot", settings.bot_set, name="bot_set"),
    path("settings/bot-challenges", settings.bot_challenges_set, name="bot_challenges_set"),
    path("settings/puzzle-names", settings.puzzle_names_set, name="puzzle_names_set"),
    path("rules/", site.rules, name="rules"),
    path("learn/", site.learn, name="learn"),
    path("learn/again", site.learn_restart, name="learn_restart"),
    path("translate/", translations.review, name="translate"),
    path("translate/suggest", translations.suggest, name="translate_suggest"),
    path("translate/thanks/", translations.thanks, name="translate_thanks"),
    path("puzzles/", puzzles.puzzles, name="puzzles"),
    path("puzzles/<id:puzzle_id>/", puzzles.puzzle, name="puzzle"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/guest/", accounts.play_now, name="guest_play"),
    path("accounts/keep/", accounts.keep_games, name="guest_keep"),
    # Django's, but the player's sockets of the sessions that end close at once.
    path(
        "accounts/password_change/", accounts.PasswordChangeView.as_view(), name="password_change"
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=forms.LoginForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("play/", lobby.lobby, name="lobby"),
    path("play/create", lobby.match_create, name="match_create"),
    path("play/computer", lobby.match_create_computer, name="match_create_computer"),
    path("play/find", lobby.match_find, name="match_find"),
    path("matches/<match:match_id>/", match.match_detail, name="match_detail"),
    path("matches/<match:match_id>/board", match.match_board, name="match_board"),
    path("matches/<match:match_id>/replay", match.match_replay, name="match_replay"),
    path(
        "matches/<match:match_id>/record.json",
        match.match_record,
        {"extension": "json"},
        name="match_record_json",
    ),
    path(
        "matches/<match:match_id>/record.txt",
        match.match_record,
        {"extension": "txt"},
        name="match_record_txt",
    ),
    path("matches/<match:match_id>/act", match.match_act, name="match_act"),
    path("matches/<match:match_id>/hint", match.match_hint, name="match_hint"),
    path("matches/<match:match_id>/join", match.match_join, name="match_join"),
    path("matches/<match:match_id>/abort", match.match_abort, name="match_abort"),
    path("matches/<match:match_id>/resign", match.match_resign, name="match_resign"),
    path("matches/<match:match_id>/claim", match.match_claim, name="match_claim"),
    path("matches/<match:match_id>/report", match.match_report, name="match_report"),
    path("matches/<match:match_id>/rematch", match.rematch_offer, name="rematch_offer"),
    path("matches/<match:match_id>/rematch/accept", match.rematch_accept, name="rematch_accept"),
    path("matches/<match:match_id>/rematch/decline", match.rematch_decline, name="rematch_decline"),
    path("users/<str:username>/", players.profile, name="profile"),
    path("users/<str:username>/challenge", lobby.challenge_create, name="challenge_create"),
    path("challenges/<id:challenge_id>/accept", lobby.challenge_accept, name="challenge_accept"),
    path("challenges/<id:challenge_id>/decline", lobby.challenge_decline, name="challenge_decline"),
    path("leaderboard/", players.leaderboard, name="leaderboard"),
    path("history/", players.history, name="history"),
]
