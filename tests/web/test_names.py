"""Names that pass for someone else's are refused at sign-up, in words."""

from __future__ import annotations

import html
import re
import sys
import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.i18n.names import skeleton
from games.models import Guest

pytestmark = pytest.mark.django_db
PASSWORDS = {"password1": "Zebra-cards-41", "password2": "Zebra-cards-41"}


def sign_up(name: str):
    return Client().post("/accounts/signup/", {"username": name, **PASSWORDS})


def refused(name: str, words: str) -> None:
    response = sign_up(name)
    assert response.status_code == 400, name
    assert words in html.unescape(response.content.decode()), name
    assert not get_user_model().objects.filter(username=name).exists()


def test_a_name_mixing_two_alphabets_is_refused(alice):
    refused("\u0430lice", "Write your name in one alphabet")  # Cyrillic а, then Latin
    refused("b\u043eb", "Write your name in one alphabet")  # Cyrillic о in a new name too


def test_a_name_that_looks_like_a_computers_is_refused():
    refused("\u0441omputer-hard", "Write your name in one alphabet")
    refused("c0mputer-hard", "belong to the computer players")
    refused("COMPUTER-easy", "belong to the computer players")


def test_a_name_that_looks_like_a_taken_one_is_refused_whichever_was_first(
    alice, django_user_model
):
    refused("a1ice", "looks too much like another player")
    fullwidth = "\uff41\uff4c\uff49\uff43\uff45"  # ａｌｉｃｅ: alice once NFKC
    refused(fullwidth, "A user with that username already exists")
    django_user_model.objects.create_user("\u0430\u0440\u0435")  # Cyrillic а р е: looks like ape
    refused("ape", "looks too much like another player")


def test_the_computer_accounts_names_are_known_too():
    services.computer_user("hard")
    assert skeleton("computer-hard") == "computerhard"


def test_accents_separators_and_another_separator_do_not_make_a_name_new(alice, bob):
    refused("a\u0301lice", "looks too much like another player")  # a and a combining accent
    refused("\u00e1lice", "looks too much like another player")  # á, precomposed
    refused("bob.", "looks too much like another player")
    refused("b_o_b", "looks too much like another player")
    refused("computer_hard", "belong to the computer players")
    refused("Computer.easy", "belong to the computer players")
    refused("computer", "belong to the computer players")


@pytest.mark.parametrize(
    "name", ["dora", "สมชาย", "ሰላም", "bob_2", "jean-luc", "computerfan", "josé"]
)
def test_names_in_one_alphabet_are_welcome(name):
    response = sign_up(name)
    assert response.status_code == 302, response.content.decode()[:2000]


def test_a_small_capital_passes_for_its_letter(alice, django_user_model):
    refused("\u1d00lice", "looks too much like another player")  # ᴀlice (issue 51)
    refused("\u1d00\u029f\u026a\u1d04\u1d07", "looks too much like another player")  # ᴀʟɪᴄᴇ
    django_user_model.objects.create_user("\u1d04\u1d00\u0280\u1d0f\u029f")  # ᴄᴀʀᴏʟ first
    refused("carol", "looks too much like another player")
    assert skeleton("\ua7aeo\u0299") == skeleton("\u026ao\u0299") == "iob"  # Ɪ, ɪ, ʙ


def test_every_latin_small_capital_letter_in_unicode_is_its_letter():
    letters = {}
    for code in range(sys.maxunicode + 1):
        name = unicodedata.name(chr(code), "")
        found = "SMALL CAPITAL" in name and re.fullmatch(
            r"LATIN (?:CAPITAL )?LETTER SMALL CAPITAL ([A-Z])", name
        )
        if found:
            letters[chr(code)] = found[1].lower()
    assert len(letters) >= 26  # ᴀ ʙ ᴄ ᴅ ᴇ ꜰ ɢ ʜ ɪ ᴊ ᴋ ʟ ᴍ ɴ ᴏ ᴘ ꞯ ʀ ꜱ ᴛ ᴜ ᴠ ᴡ ʏ ᴢ, and Ɪ
    assert {char: skeleton(char) for char in letters} == letters


@pytest.mark.parametrize(
    "name", ["guest1234", "Guest_1234", "guest-0001", "GUEST.48210", "guestl234", "gue.st99"]
)
def test_a_name_that_passes_for_a_guests_is_refused(name):
    refused(name, "looks too much like another player")  # guests are "Guest 1234"


def test_keeping_a_guests_games_under_a_guests_name_is_refused_and_guests_are_still_made():
    client = Client()
    assert client.post("/accounts/guest/").status_code == 302
    guest = Guest.objects.get().user
    form = {"username": "guest4821", **PASSWORDS}
    response = client.post("/accounts/keep/", form)
    assert response.status_code == 400
    assert "looks too much like another player" in html.unescape(response.content.decode())
    assert Guest.objects.filter(user=guest).exists()  # still a guest, its name unchanged
    made = [services.guest_create() for _ in range(3)]  # the site's own guests: named as ever
    assert all(re.fullmatch(r"Guest \d{4,6}", user.username) for user in made)


@pytest.mark.parametrize("name", ["guest", "guesthouse", "guest_star", "guest4you"])
def test_names_with_guest_in_them_that_pass_for_no_guest_are_welcome(name):
    assert sign_up(name).status_code == 302
