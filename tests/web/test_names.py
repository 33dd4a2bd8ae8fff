"""Names that pass for someone else's are refused at sign-up, in words."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.i18n.names import skeleton

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
