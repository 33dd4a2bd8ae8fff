"""The review of the site's words by players who read a language: a suggestion made on the
review page, accepted by a moderator, is on the site in that language; and what is refused."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.i18n import catalogues
from games.models import ModerationAction, TranslationSuggestion
from tests.support.catalogues import client_in

# Every test here writes into a copy of the catalogues.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("own_catalogues")]

LEADERBOARD_SO = "Kala sarreynta ciyaartoyda"


def test_a_suggestion_accepted_by_a_moderator_shows_on_the_site(
    carol,
    moderator,  # noqa: F811  (the fixture imported above)
    django_capture_on_commit_callbacks,
):
    carol.client = client_in(carol, "so")
    current = catalogues.wording("so", "", "Leaderboard")
    assert current in carol.client.get("/leaderboard/").content.decode()
    page = carol.client.get("/translate/", {"q": "Leaderboard"}).content.decode()
    assert 'lang="so" data-msgstr>' + current in page  # the wording of the page's language
    sent = carol.client.post(
        "/translate/suggest",
        {"language": "so", "msgid": "Leaderboard", "msgctxt": "", "text": LEADERBOARD_SO,
         "note": "The players are ranked", "credit": "on"},
        follow=True,
    )  # fmt: skip
    assert "data-suggestion-sent" in sent.content.decode()
    assert "data-waiting" in sent.content.decode()
    suggestion = TranslationSuggestion.objects.get()
    assert (suggestion.current, suggestion.text) == (current, LEADERBOARD_SO)
    assert LEADERBOARD_SO not in carol.client.get("/leaderboard/").content.decode()

    queue = moderator.client.get("/admin/games/translationsuggestion/").content.decode()
    assert LEADERBOARD_SO in queue and "The players are ranked" in queue
    with django_capture_on_commit_callbacks(execute=True):  # written once the answer commits
        answer = moderator.client.post(
            "/admin/games/translationsuggestion/",
            {"action": "accept_suggestions", "_selected_action": [suggestion.pk]},
            follow=True,
        )
    assert "Accepted, and written into the catalogue: 1." in answer.content.decode()
    assert catalogues.wording("so", "", "Leaderboard") == LEADERBOARD_SO
    assert LEADERBOARD_SO in carol.client.get("/leaderboard/").content.decode()
    assert LEADERBOARD_SO not in client_in(carol, "th").get("/leaderboard/").content.decode()
    audit = ModerationAction.objects.get()
    assert (audit.kind, audit.player) == (ModerationAction.Kind.ACCEPT_WORDING, carol)
    thanks = Client().get("/translate/thanks/").content.decode()
    assert "carol" in thanks and "1" in thanks
    again = moderator.client.post(
        "/admin/games/translationsuggestion/",
        {"action": "reject_suggestions", "_selected_action": [suggestion.pk]},
        follow=True,
    ).content.decode()
    assert "This suggestion was answered already." in again


def test_the_page_a_player_came_from_lists_its_messages(carol):
    client = client_in(carol, "th")
    leaderboard = catalogues.wording("th", "", "Leaderboard")
    page = client.post(
        "/translate/", {"page": "/leaderboard/", "text": f"{leaderboard}\n carol 1500"}
    ).content.decode()
    assert 'href="/leaderboard/"' in page
    assert '<p lang="en" data-msgid>Leaderboard</p>' in page
    assert "Two players · 24, 25 or 32 cards" not in page  # not on what was sent


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"text": "  "}, "Write the wording you suggest."),
        ({"text": "%(player)s"}, "Keep the message&#x27;s placeholders exactly as they are"),
        ({"msgid": "No such words anywhere"}, "The site has no such message"),
        ({"language": "en"}, "Choose one of the site&#x27;s languages other than English."),
    ],
)
def test_a_bad_suggestion_is_refused_in_words_and_changes_nothing(carol, change, words):
    client = client_in(carol, "en")  # the refusal in the page's language: English here
    post = {"language": "so", "msgid": "Leaderboard", "msgctxt": "", "text": "Liiska", **change}
    answer = client.post("/translate/suggest", post)
    assert answer.status_code in (400, 404)
    assert words in answer.content.decode()
    assert not TranslationSuggestion.objects.exists()


def test_a_second_suggestion_for_one_message_waits_for_the_first(carol):
    services.translation_suggest(author=carol, language="so", msgid="Leaderboard", text="Liiska")
    with pytest.raises(services.Conflict):
        services.translation_suggest(author=carol, language="so", msgid="Leaderboard", text="X")


def test_only_players_review_and_only_moderators_answer(carol, alice):
    assert Client().get("/translate/").status_code == 302  # to the log-in page
    suggestion = services.translation_suggest(
        author=carol, language="so", msgid="Leaderboard", text="Liiska"
    )
    outsider = client_in(alice, "so")
    outsider.post(
        "/admin/games/translationsuggestion/",
        {"action": "accept_suggestions", "_selected_action": [suggestion.pk]},
    )
    suggestion.refresh_from_db()
    assert suggestion.status == TranslationSuggestion.Status.OPEN


def test_a_catalogue_the_server_cannot_write_keeps_the_answer_for_later(
    carol,
    moderator,  # noqa: F811  (the fixture imported above)
    own_catalogues,
    django_capture_on_commit_callbacks,
):
    """The moderator's answer stands, the page answers, and update_catalogues writes it later."""
    suggestion = services.translation_suggest(
        author=carol, language="so", msgid="Leaderboard", text=LEADERBOARD_SO
    )
    compiled = own_catalogues / "so" / "LC_MESSAGES" / "django.mo"
    compiled.unlink()
    compiled.mkdir()  # not a file it can write
    with django_capture_on_commit_callbacks(execute=True):
        answer = moderator.client.post(
            "/admin/games/translationsuggestion/",
            {"action": "accept_suggestions", "_selected_action": [suggestion.pk]},
            follow=True,
        )
    assert answer.status_code == 200
    suggestion.refresh_from_db()
    assert suggestion.status == TranslationSuggestion.Status.ACCEPTED
    assert suggestion.applied_at is None
    compiled.rmdir()
    assert services.translations_apply() == 1
    assert catalogues.wording("so", "", "Leaderboard") == LEADERBOARD_SO
