"""Django's own texts (the auth forms, the password validators, the password pages and their
e-mails, the admin's log-in page) come out in the player's language: our catalogues carry
them (euchre_site/django_texts.py), since Django ships none for several of our languages.

Each page is rendered in English and in each other language, its errors included; no English
text of the English rendering may come back unchanged in the other one.
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import django
import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from euchre_site import django_texts
from games.i18n import catalogues

OTHERS = [code for code, _name in settings.LANGUAGES if code != "en"]
SHOWN_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "data-live-words"}
SHOWN_ATTRIBUTES |= {"data-offline-words"}


class Texts(HTMLParser):
    """Every text a reader sees: text nodes and the attributes that browsers show."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.texts.append(value)
            if name == "value" and ("type", "submit") in attrs and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.texts.append(data)


def texts_of(content: str, html: bool = True) -> set[str]:
    if html:
        parser = Texts()
        parser.feed(content)
        raw = parser.texts
    else:
        raw = content.splitlines()
    return {" ".join(t.split()) for t in raw if " ".join(t.split())}


def english(text: str, names: set[str]) -> bool:
    """Words a reader would take for English: a word of letters, not a name or an address."""
    if text in names or "@" in text or "://" in text:
        return False
    return re.search(r"[A-Za-z]{2,}", text) is not None


def renderings(code: str, django_user_model) -> dict[str, set[str]]:
    """Every page and e-mail the texts of Django appear on, rendered in ``code``."""
    name = f"dana{code}"
    user = django_user_model.objects.create_user(
        name, email=f"{name}@example.com", password="correct horse 4"
    )
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    pages: dict[str, str] = {}

    def get(key, url, **kwargs):
        response = client.get(url, **kwargs)
        assert response.status_code < 400, (key, response.status_code)
        pages[key] = response.content.decode()

    def post(key, url, data):
        response = client.post(url, data)
        assert response.status_code < 500, (key, response.status_code)
        pages[key] = response.content.decode()
        return response

    get("signup", "/accounts/signup/")
    # Every kind of error the sign-up form and the password validators give.
    post("signup taken", "/accounts/signup/", {
        "username": name, "email": "not-an-email", "password1": "123", "password2": "123",
    })  # fmt: skip
    post("signup bad name", "/accounts/signup/", {
        "username": "bad name!", "password1": "zanzibar-x", "password2": "zanzibar-y",
    })  # fmt: skip
    post("signup similar", "/accounts/signup/", {
        "username": "zanzibar77", "password1": "zanzibar77", "password2": "zanzibar77",
    })  # fmt: skip
    post("signup long", "/accounts/signup/", {"username": "x" * 151, "password1": "a"})
    post("signup empty", "/accounts/signup/", {})
    get("login", "/accounts/login/")
    post("login failed", "/accounts/login/", {"username": name, "password": "wrong"})
    get("reset", "/accounts/password_reset/")
    mail.outbox = []
    response = post("reset asked", "/accounts/password_reset/", {"email": user.email})
    get("reset done", response.url)
    (message,) = mail.outbox
    pages["reset e-mail"] = message.subject + "\n" + message.body
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    get("reset confirm", f"/accounts/reset/{uid}/{token}/", follow=True)
    confirm = f"/accounts/reset/{uid}/set-password/"
    post("reset mismatch", confirm, {"new_password1": "zanzibar-x", "new_password2": "z"})
    post("reset weak", confirm, {"new_password1": "12345", "new_password2": "12345"})
    chosen = {"new_password1": "new horse 5", "new_password2": "new horse 5"}
    response = post("reset set", confirm, chosen)
    get("reset complete", response.url)
    get("reset invalid", f"/accounts/reset/{uid}/bad-token/", follow=True)
    user.refresh_from_db()  # the new password: a session with the old one is logged out
    client.force_login(user)
    get("change", "/accounts/password_change/")
    post("change wrong", "/accounts/password_change/", {
        "old_password": "wrong", "new_password1": "x", "new_password2": "y",
    })  # fmt: skip
    response = post("change done", "/accounts/password_change/", {
        "old_password": "new horse 5", "new_password1": "new horse 6",
        "new_password2": "new horse 6",
    })  # fmt: skip
    get("change done page", response.url)
    get("admin not staff", "/admin/login/?next=/admin/")
    client.logout()  # the test client forgets every cookie: the language's too
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    get("admin login", "/admin/login/?next=/admin/")
    post("admin failed", "/admin/login/?next=/admin/", {"username": name, "password": "wrong"})
    return {key: texts_of(page, html=key != "reset e-mail") for key, page in pages.items()}


@pytest.mark.django_db
@pytest.mark.parametrize("code", OTHERS)
def test_djangos_own_texts_come_out_in_every_language(code, django_user_model):
    shown = renderings("en", django_user_model)
    translated = renderings(code, django_user_model)
    # Names that stay as they are in every language: players, the languages' own names.
    names = {f"dana{c}" for c in ["en", code]} | {"zanzibar77", "x" * 151}
    names |= {info["name_local"] for info in settings.LANG_INFO.values() if "name_local" in info}
    assert translated.keys() == shown.keys()
    # The English rendering does show Django's texts (the test looks where it should).
    everything = set().union(*shown.values())
    for sentence in [
        "Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.",
        "This password is too short. It must contain at least 8 characters.",
        "This password is too common.",
        "This password is entirely numeric.",
        "The password is too similar to the username.",
        "The two password fields didn’t match.",
        "Your old password was entered incorrectly. Please enter it again.",
    ]:
        assert sentence in everything
    left = {
        key: sorted(t for t in translated[key] & texts if english(t, names))
        for key, texts in shown.items()
    }
    assert {key: texts for key, texts in left.items() if texts} == {}


def test_every_marked_django_text_is_still_one_of_djangos_own():
    """An upgrade of Django that rewords a text shows up here, not as English on a page."""
    source = Path(django_texts.__file__).read_text(encoding="utf-8")
    marked = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop":
            marked.add((None, node.args[0].value, None))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ngettext_lazy":
            marked.add((None, node.args[0].value, node.args[1].value))
    root = Path(django.__file__).parent
    djangos = {
        catalogues.key(entry)
        for part in ["conf", "contrib/auth", "contrib/admin"]
        for entry in catalogues.read(root / part / "locale/en/LC_MESSAGES/django.po")
    }
    assert len(marked) > 35 and marked - djangos == set()
    ours = {catalogues.key(entry) for entry in catalogues.read(catalogues.path_of("so"))}
    assert marked - ours == set(), "run: python manage.py update_catalogues"


@pytest.mark.django_db
def test_a_failed_log_in_says_why_once(alice):
    page = Client().post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert page.content.decode().count("Please enter a correct username and password") == 1
