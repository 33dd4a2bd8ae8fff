from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import converters, forms, views  # noqa: F401  (converters registers <match:>)

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("language/", views.language_set, name="language_set"),
    path("settings/sound", views.sound_set, name="sound_set"),
    path("settings/look", views.look_set, name="look_set"),
    path("rules/", views.rules, name="rules"),
    path("learn/", views.learn, name="learn"),
    path("learn/again", views.learn_restart, name="learn_restart"),
    path("accounts/signup/", views.signup, name="signup"),
    # Django's, but the player's sockets of the sessions that end close at once.
    path("accounts/password_change/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=forms.LoginForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("play/", views.lobby, name="lobby"),
    path("play/create", views.match_create, name="match_create"),
    path("play/computer", views.match_create_computer, name="match_create_computer"),
    path("play/find", views.match_find, name="match_find"),
    path("matches/<match:match_id>/", views.match_detail, name="match_detail"),
    path("matches/<match:match_id>/board", views.match_board, name="match_board"),
    path("matches/<match:match_id>/replay", views.match_replay, name="match_replay"),
    path("matches/<match:match_id>/act", views.match_act, name="match_act"),
    path("matches/<match:match_id>/hint", views.match_hint, name="match_hint"),
    path("matches/<match:match_id>/join", views.match_join, name="match_join"),
    path("matches/<match:match_id>/abort", views.match_abort, name="match_abort"),
    path("matches/<match:match_id>/resign", views.match_resign, name="match_resign"),
    path("matches/<match:match_id>/claim", views.match_claim, name="match_claim"),
    path("matches/<match:match_id>/report", views.match_report, name="match_report"),
    path("matches/<match:match_id>/rematch", views.rematch_offer, name="rematch_offer"),
    path("matches/<match:match_id>/rematch/accept", views.rematch_accept, name="rematch_accept"),
    path("matches/<match:match_id>/rematch/decline", views.rematch_decline, name="rematch_decline"),
    path("users/<str:username>/", views.profile, name="profile"),
    path("users/<str:username>/challenge", views.challenge_create, name="challenge_create"),
    path("challenges/<id:challenge_id>/accept", views.challenge_accept, name="challenge_accept"),
    path("challenges/<id:challenge_id>/decline", views.challenge_decline, name="challenge_decline"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("history/", views.history, name="history"),
]
