"""Play in your own language: catalogues complete and current, the switcher remembered,
the game's words consistent, and pushes in the viewer's language."""

from __future__ import annotations

import gettext
import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.i18n import catalogues
from games.i18n.glossary import FORMS, NOT_THE_TERM, PATTERNS, TERMS
from games.management.commands.update_catalogues import IGNORED
from games.models import PlayerSettings
from tests.support.environment import missing
from tests.support.matches import start

OFFERED = [code for code, _name in settings.LANGUAGES]
ROOT = Path(__file__).resolve().parents[2]


def test_english_is_the_default_and_every_catalogue_language_is_known_to_django():
    assert settings.LANGUAGE_CODE == "en" and "en" in OFFERED
    assert [c for c, _ in settings.CATALOGUE_LANGUAGES] == ["en", "my", "ht", "th", "so", "am"]
    for code, _name in settings.CATALOGUE_LANGUAGES:
        assert translation.get_language_info(code)["name_local"]


@pytest.mark.parametrize("code", OFFERED)
def test_an_offered_catalogue_has_no_empty_or_fuzzy_entry(code):
    catalogue = catalogues.read(catalogues.path_of(code))
    assert len(catalogue) > 300
    assert [e.msgid for e in catalogues.missing(catalogue)] == []
    assert catalogue.metadata["Language"] == code


@pytest.mark.parametrize("code", OFFERED)
def test_the_compiled_catalogue_is_the_po_file_compiled_now(code, tmp_path):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        missing("gettext's msgfmt (apt-get install gettext)")
    po = catalogues.path_of(code)
    fresh = tmp_path / "django.mo"
    subprocess.run([msgfmt, "--check-format", "-o", str(fresh), str(po)], check=True)
    committed = po.with_suffix(".mo")

    def catalogue(path):
        with path.open("rb") as handle:
            return gettext.GNUTranslations(handle)._catalog

    assert catalogue(committed) == catalogue(fresh), "run: python manage.py update_catalogues"


def test_makemessages_finds_no_marked_string_missing_from_the_catalogues(tmp_path, monkeypatch):
    if shutil.which("xgettext") is None:
        missing("gettext's xgettext (apt-get install gettext)")
    # makemessages writes beside the files it reads (its catalogue, and a work file next to
    # each template): it runs in a scratch folder, the templates and catalogues copied, the
    # rest linked. The project's own catalogues are compared with its catalogue, never touched.
    scratch = tmp_path / "project"
    scratch.mkdir()
    for entry in ROOT.iterdir():
        if entry.name == "templates":
            shutil.copytree(entry, scratch / entry.name)
        elif entry.name != "locale" and not entry.name.startswith("."):
            (scratch / entry.name).symlink_to(entry)
    shutil.copytree(ROOT / "locale", scratch / "locale")
    monkeypatch.chdir(scratch)
    monkeypatch.setattr(settings, "LOCALE_PATHS", [scratch / "locale"])
    (scratch / "locale" / "en" / "LC_MESSAGES" / "django.po").unlink()  # made afresh
    with translation.override("en"):
        call_command(
            "makemessages", locale=["en"], no_location=True, no_obsolete=True, symlinks=True,
            ignore_patterns=list(IGNORED),
            verbosity=0,
        )  # fmt: skip
    fresh = catalogues.read(scratch / "locale" / "en" / "LC_MESSAGES" / "django.po")
    assert len(fresh) > 300
    found = {catalogues.key(e) for e in fresh}
    assert (None, "No card led yet", None) in found  # only the board says it (Jinja2)
    for code, _name in settings.CATALOGUE_LANGUAGES:
        ours = {catalogues.key(e) for e in catalogues.read(catalogues.path_of(code))}
        assert found == ours, f"{code}: run python manage.py update_catalogues"


def test_makemessages_writes_no_work_file_into_the_project_through_a_link():
    """Beside each .html or .txt file it reads makemessages writes a work file for a moment:
    in the scratch folder above, a linked folder's are written in the project itself, where
    another test's server lists the static files (a file gone before it was read failed CI).
    Every folder with such a file, templates aside (copied), is one makemessages skips."""
    for entry in ROOT.iterdir():
        if not entry.is_dir() or entry.name.startswith(".") or entry.name == "templates":
            continue
        if any(entry.rglob("*.html")) or any(entry.rglob("*.txt")):
            assert entry.name in IGNORED, entry


def glossary(code: str) -> dict[str, set[str]]:
    """Each term's forms in this language: the glossary word and the other forms it allows."""
    with translation.override(code):
        words = {english: str(word).lower() for english, word, _meaning in TERMS}
    forms = FORMS.get(code, {})
    return {english: {word, *forms.get(english, ())} for english, word in words.items()}


@pytest.mark.parametrize("code", [c for c in OFFERED if c != "en"])
def test_the_games_words_keep_one_translation_across_the_site(code):
    """Wherever an English text says "trick", the translation says the glossary's word for it
    (or one of the forms the glossary allows for it)."""
    entries = catalogues.read(catalogues.path_of(code))
    checked, wrong = 0, []
    for english, forms in glossary(code).items():
        pattern = re.compile(PATTERNS.get(english, rf"\b{re.escape(english)}\b"), re.IGNORECASE)
        for entry in entries:
            if entry.msgctxt is None and pattern.search(entry.msgid):
                checked += 1
                for text in catalogues.strings(entry):
                    for other_word in NOT_THE_TERM.get(code, ()):
                        text = text.replace(other_word, " ")
                    if not any(form in text.lower() for form in forms):
                        wrong.append((english, entry.msgid, text))
    assert wrong == []
    assert checked >= 100


def _contains(word: str, other: str) -> bool:
    """``word`` inside ``other``: as a whole word in scripts that space their words, as a part
    of it in those that do not (Thai, Burmese)."""
    if re.search(r"[\u0e00-\u0e7f\u1000-\u109f]", word + other):
        return word in other
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", other) is not None


# The maker is who made trump: its word may say so.
MAY_CONTAIN = {("trump", "maker")}


@pytest.mark.parametrize("code", OFFERED)
def test_no_two_concepts_share_a_word(code):
    terms = glossary(code)
    shared = []
    for (one, forms), (other, other_forms) in itertools.permutations(terms.items(), 2):
        if (one, other) in MAY_CONTAIN:
            continue
        for form, other_form in itertools.product(forms, other_forms):
            if _contains(form, other_form):
                shared.append((code, one, form, other, other_form))
    assert shared == []


@pytest.mark.django_db
def test_the_browser_language_picks_the_first_default():
    other = next(c for c in OFFERED if c != "en")
    page = Client(headers={"accept-language": f"{other},en;q=0.5"}).get("/")
    assert f'<html lang="{other}">' in page.content.decode()
    english = Client(headers={"accept-language": "de,en;q=0.5"}).get("/")
    assert '<html lang="en">' in english.content.decode()


@pytest.mark.django_db
def test_a_visitors_choice_is_kept_in_a_cookie():
    other = next(c for c in OFFERED if c != "en")
    client = Client()
    response = client.post(reverse("language_set"), {"language": other, "next": "/rules/"})
    assert response.status_code == 302 and response.url == "/rules/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == other
    assert f'<html lang="{other}">' in client.get("/rules/").content.decode()


@pytest.mark.django_db
def test_a_players_choice_follows_them_to_another_device(alice):
    other = next(c for c in OFFERED if c != "en")
    phone = Client()
    phone.force_login(alice)
    phone.post(reverse("language_set"), {"language": other, "next": "/play/"})
    assert PlayerSettings.objects.get(user=alice).language == other
    laptop = Client(headers={"accept-language": "en"})
    laptop.post("/accounts/login/", {"username": "alice", "password": "correct horse 1"})
    assert f'<html lang="{other}">' in laptop.get("/play/").content.decode()


@pytest.mark.django_db
def test_an_unknown_language_or_an_outside_next_is_refused_or_ignored():
    client = Client()
    response = client.post(reverse("language_set"), {"language": "xx"})
    assert (
        response.status_code == 400
        and "Choose a language from the list" in response.content.decode()
    )
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    response = client.post(
        reverse("language_set"), {"language": "en", "next": "https://evil.example/"}
    )
    assert response.url == "/"


@pytest.mark.django_db
@pytest.mark.parametrize("code", OFFERED)
def test_the_rules_page_and_the_board_speak_each_language(client, alice, bob, code):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    rules = client.get("/rules/").content.decode()
    # The same card examples in every language: J♣ > J♠ > A♣ > K♣ > Q♣ > 10♣ > 9♣.
    faces = re.findall(r'data-card="(\w\w)"', rules)
    clubs = ["JC", "JS", "AC", "KC", "QC", "TC", "9C"]
    assert faces == clubs + ["AS", "JD"]  # then the trick: the left bower wins
    match = start(alice, bob)
    client.force_login(match.players[match.state.turn])
    board = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    with translation.override(code):
        assert translation.gettext("Pass") in board
        assert translation.gettext("Your hand") in board
        assert translation.gettext("The rules of two-hand euchre") in rules


@pytest.mark.django_db
def test_dates_follow_the_locale(alice):
    from datetime import datetime

    from django.utils import timezone
    from django.utils.formats import date_format

    day = timezone.make_aware(datetime(2026, 3, 7))
    with translation.override("en"):
        english = date_format(day, "SHORT_DATE_FORMAT")
    with translation.override("so"):
        somali = date_format(day, "SHORT_DATE_FORMAT")
    with translation.override("th"):
        thai = date_format(day, "DATE_FORMAT")
    assert english == "03/07/2026" and somali == "07/03/2026"  # month first, then day first
    assert "2026" in thai and "มีนาคม" in thai  # Thai month names, from Django's catalogue
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ht"
    client.force_login(alice)
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    joined = alice.date_joined
    assert f"{joined.day}/{joined.month}/{joined.year}" in page


# Words of Amharic that end like a masculine "you" (-ህ, -ክ) but are not one: "this", "here",
# "jack", "little", "field", "to send", "bright".
NOT_ADDRESSED = {"ይህ", "በዚህ", "ለዚህ", "እንዲህ", "ከእንግዲህ", "እነዚህ", "ከእነዚህ", "እዚህ", "ጃክ", "ትንሽ"}
NOT_ADDRESSED |= {"መስክ", "ለመላክ", "መላክ", "ልክ", "ብሩህ", "የዚህ"}  # sending; exactly
NOT_ADDRESSED |= {"ሊንክ", "ታሪክ", "ወደዚህ", "ከዚህ", "ስለዚህ"}  # a link; history; to, from, so: here
NOT_ADDRESSED |= {"እንደዚህ", "በስልክ"}  # like this; by phone


def test_amharic_addresses_every_player_alike():
    """The polite "you" (እርስዎ, ይችላሉ, ይምረጡ) speaks to any player; the familiar masculine
    one (አንተ, ትችላለህ, ምረጥ) only to men."""
    masculine = []
    for entry in catalogues.read(catalogues.path_of("am")):
        for text in catalogues.strings(entry):
            words = re.findall(r"[\u1200-\u135f]+", text)  # letters: not the stops (U+1361-8)
            masculine += [
                w for w in words if w == "አንተ" or w[-1] in "ህክ" and w not in NOT_ADDRESSED
            ]
    assert masculine == []


@pytest.mark.django_db
def test_burmese_writes_every_number_in_one_digit_system(client, alice, bob):
    """Western digits, as the cards (9, 10) and the numbers from the code (scores, clocks,
    ratings, dates) are written: never Burmese digits (၀-၉) beside them."""
    burmese_digit = re.compile("[\u1040-\u1049]")
    entries = catalogues.read(catalogues.path_of("my"))
    assert [e.msgid for e in entries if burmese_digit.search("".join(catalogues.strings(e)))] == []
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "my"
    match = start(alice, bob)
    client.force_login(alice)
    pages = [client.get(url).content.decode() for url in ["/rules/", "/play/", "/leaderboard/"]]
    pages.append(client.get(reverse("match_detail", args=[match.pk])).content.decode())
    pages.append(client.get(reverse("profile", args=["alice"])).content.decode())
    assert all(not burmese_digit.search(page) for page in pages)
    assert any(re.search(r"\d", page) for page in pages)


@pytest.mark.parametrize("code", OFFERED)
def test_the_games_name_says_no_word_of_the_game_but_hand(code):
    """ "Two-hand euchre" counts players' hands: read with the trick's word in it (Somali
    "gacmood"), it names another game."""
    with translation.override(code):
        name = translation.gettext("Two-hand euchre").lower()
    inside = [
        (english, form)
        for english, forms in glossary(code).items()
        if english not in ("hand", "euchred")
        for form in forms
        if _contains(form, name)
    ]
    assert inside == []
