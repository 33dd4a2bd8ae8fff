"""Words from strangers, checked like code: the review page's search of a page's words costs
a bounded number of pattern searches whatever is posted, and no suggested wording that a page
could not show as it is (markup, a placeholder the message lacks, a lone percent sign) reaches
a catalogue, whether a player sends it, a moderator accepts it or it is written."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.conf import settings as django_settings
from django.test import Client

from games import services
from games.i18n import catalogues, wording
from games.models import ModerationAction, TranslationSuggestion
from tests.support.catalogues import client_in
from tests.support.matches import play_to_the_end, start

# Every test here writes into a copy of the catalogues.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("own_catalogues")]

META = '<meta http-equiv="refresh" content="0;url=https://evil.example/"><plaintext>'
# (message, suggested wording, the words refusing it on the form, and in the admin)
HOSTILE = [
    pytest.param("Rules", f"กติกา{META}", *["Leave out &lt;, &gt;, &amp;"] * 2, id="markup"),
    pytest.param(
        "to %(target)s", "ถึง %(target)s %(zz)s", *["placeholders exactly"] * 2, id="extra"
    ),
    pytest.param("to %(target)s", "ถึง %(target)s %(zz)r", *["placeholders exactly"] * 2, id="repr"),
    pytest.param("to %(target)s", "ถึง %(target)s 5%", *["a percent sign"] * 2, id="lone-percent"),
    pytest.param(
        "Rules", "กติกา\x00", "Null characters are not allowed", "cannot be shown", id="null"
    ),
]
LANGUAGES = [code for code, _name in django_settings.LANGUAGES]


@pytest.fixture
def searches(monkeypatch) -> list:
    """The page searches the review page made (``catalogues.page_messages``'s answers)."""
    answers = []
    real = catalogues.page_messages

    def spy(code, page_text):
        answers.append(real(code, page_text))
        return answers[-1]

    monkeypatch.setattr(catalogues, "page_messages", spy)
    return answers


def test_the_worst_text_is_searched_a_bounded_number_of_times(carol, searches):
    client = client_in(carol, "th")
    messages = len(catalogues.index("th").messages)
    # The attack pass's 400 KB: no message's words are in it, no pattern runs.
    answer = client.post("/translate/", {"page": "/rules/", "text": "ก " * 100_000})
    assert answer.status_code == 200
    assert searches[-1].searches == 0
    # Every message's words, over and over: each pattern runs at most ANCHOR_TRIES times.
    every = " ".join(m.msgstr for m in catalogues.index("th").messages)
    every *= catalogues.PAGE_TEXT_LIMIT // len(every) + 2
    answer = client.post("/translate/", {"page": "/rules/", "text": every})
    assert answer.status_code == 200
    assert 0 < searches[-1].searches <= catalogues.ANCHOR_TRIES * messages
    # And the search still finds them: those in the part of the text a page's words are read
    # from (PAGE_TEXT_LIMIT; the whole catalogue is longer than that).
    read = every[: catalogues.PAGE_TEXT_LIMIT]
    within = sum(1 for m in catalogues.index("th").messages if m.msgstr and m.msgstr in read)
    assert len(searches[-1].found) > within // 2


def test_only_the_first_characters_of_a_page_are_read(carol, searches):
    leaderboard = catalogues.wording("th", "", "Leaderboard")
    filler = "x " * catalogues.PAGE_TEXT_LIMIT
    client_in(carol, "th").post("/translate/", {"page": "/", "text": filler + leaderboard})
    assert "Leaderboard" not in [m["msgid"] for m in searches[-1].found]


def test_a_player_asking_too_often_is_told_to_wait(carol, settings):
    settings.TRANSLATE_PAGES_PER_MINUTE = 2
    client = client_in(carol, "en")
    for _ in range(2):
        assert client.post("/translate/", {"page": "/", "text": "Rules"}).status_code == 200
    answer = client.post("/translate/", {"page": "/", "text": "Rules"})
    assert answer.status_code == 429
    assert "Too many requests: wait" in answer.content.decode()
    assert client.get("/translate/").status_code == 200  # searching the list is not limited


@pytest.mark.parametrize(("msgid", "text", "words", "_admin_words"), HOSTILE)
def test_a_hostile_suggestion_is_refused_in_words(carol, msgid, text, words, _admin_words):
    post = {"language": "th", "msgid": msgid, "msgctxt": "", "text": text}
    answer = client_in(carol, "en").post("/translate/suggest", post)
    assert answer.status_code == 400
    assert words in answer.content.decode()
    assert not TranslationSuggestion.objects.exists()


@pytest.mark.parametrize(("msgid", "text", "_words", "words"), HOSTILE)
def test_a_moderator_cannot_accept_a_hostile_suggestion(
    carol,
    moderator,  # noqa: F811  (the fixture imported above)
    msgid,
    text,
    _words,
    words,
    django_capture_on_commit_callbacks,
):
    """One stored before the check existed: accepting it is refused with the reason, and the
    catalogue never holds it. (PostgreSQL stores no NUL: an escape character stands for it.)"""
    text = text.replace("\x00", "\x1b")
    current = catalogues.wording("th", "", msgid)
    suggestion = TranslationSuggestion.objects.create(
        author=carol, language="th", msgid=msgid, current=current, text=text
    )
    listed = moderator.client.get("/admin/games/translationsuggestion/").content.decode()
    assert "Refused:" in listed  # the queue shows the check's verdict before anyone accepts
    with django_capture_on_commit_callbacks(execute=True):
        answer = moderator.client.post(
            "/admin/games/translationsuggestion/",
            {"action": "accept_suggestions", "_selected_action": [suggestion.pk]},
            follow=True,
        ).content.decode()
    assert "Accepted, and written into the catalogue" not in answer
    assert words in answer  # the moderator is told why
    suggestion.refresh_from_db()
    assert suggestion.status == TranslationSuggestion.Status.OPEN
    assert not ModerationAction.objects.exists()
    assert catalogues.wording("th", "", msgid) == current
    assert catalogues.write_translations("th", [("", msgid, text)]) == []  # nor written directly
    assert catalogues.wording("th", "", msgid) == current


def test_the_moderator_sees_the_change_and_a_preview(carol, moderator):  # noqa: F811
    suggestion = services.translation_suggest(
        author=carol, language="th", msgid="to %(target)s", text="ไปถึง %(target)s"
    )
    page = moderator.client.get(
        f"/admin/games/translationsuggestion/{suggestion.pk}/change/"
    ).content.decode()
    assert "<ins>ไป</ins>" in page  # what the suggestion adds to today's "ถึง %(target)s"
    assert "ไปถึง «target»" in page  # the preview, the placeholder named
    assert "Passes the check" in page and "Look twice: it has a percent sign (%)." in page


PUBLIC = ["/", "/rules/", "/learn/", "/accounts/login/", "/accounts/signup/", "/puzzles/",
          "/translate/thanks/"]  # fmt: skip


def _players_pages(alice, bob) -> list[str]:
    """A page of each family a player sees: their own, a match in play and a finished one."""
    in_play = start(alice, bob)
    done = play_to_the_end(start(alice, bob), seed=3)
    return [
        "/play/", "/leaderboard/", "/history/", "/users/bob/", "/arenas/", "/settings/",
        "/following/", "/translate/", f"/matches/{in_play.pk}/", f"/matches/{in_play.pk}/board",
        f"/matches/{done.pk}/", f"/matches/{done.pk}/replay",
    ]  # fmt: skip


def test_every_page_in_every_language_after_suggestions_are_accepted(
    alice,
    bob,
    carol,
    moderator,  # noqa: F811  (the fixture imported above)
    own_catalogues,
    django_capture_on_commit_callbacks,
):
    """Two good suggestions accepted (one with a placeholder, on every board), then every page
    family answers in every language, with no markup a suggestion tried to bring."""
    good = [("Rules", "กติกาของเกม"), ("to %(target)s", "ไปถึง %(target)s")]
    made = [
        services.translation_suggest(author=carol, language="th", msgid=m, text=t) for m, t in good
    ]
    hostile = [
        TranslationSuggestion.objects.create(
            author=carol, language="th", msgid=m, current="", text=t.replace("\x00", "\x1b")
        )
        for m, t, *_words in (p.values for p in HOSTILE)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        moderator.client.post(
            "/admin/games/translationsuggestion/",
            {"action": "accept_suggestions", "_selected_action": [s.pk for s in made + hostile]},
        )
    assert catalogues.wording("th", "", "Rules") == "กติกาของเกม"
    thai = own_catalogues / "th/LC_MESSAGES/django.po"
    compiled = subprocess.run(
        [shutil.which("msgfmt"), "--check", "-o", "/dev/null", str(thai)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert compiled.returncode == 0, compiled.stderr
    pages = [(False, url) for url in PUBLIC] + [(True, url) for url in _players_pages(alice, bob)]
    for language in LANGUAGES:
        player, visitor = client_in(alice, language), Client()
        visitor.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
        for logged_in, url in pages:
            answer = (player if logged_in else visitor).get(url)
            assert answer.status_code == 200, (language, url, answer.status_code)
            body = answer.content.decode()
            assert "evil.example" not in body and "<plaintext>" not in body, (language, url)
    thai = client_in(alice, "th").get("/rules/").content.decode()
    assert "กติกาของเกม" in thai


@pytest.mark.parametrize("code", [code for code in LANGUAGES if code != "en"])
def test_every_wording_in_the_catalogues_passes_the_check(code):
    """The check holds the site's own translations to the rule a suggestion meets."""
    for entry in catalogues.read(catalogues.path_of(code)):
        if entry.obsolete:
            continue
        english = [entry.msgid, entry.msgid_plural] if entry.msgid_plural else [entry.msgid]
        for text in filter(None, catalogues.strings(entry)):
            assert any(wording.problem(m, text) is None for m in english), (entry.msgid, text)
