"""Player names that cannot pass for someone else's.

Django already brings a new name to Unicode's NFKC form (``ａｌｉｃｅ`` is ``alice``) and refuses
one that differs from a taken name only in case. Here, besides: a name must be written in one
script (``аlice``, with a Cyrillic а, mixes two), and it must not look like a taken name, a
computer's or a guest's once each letter is replaced by the Latin letter it passes for (its
*skeleton*, after Unicode's confusables list, which the ``confusable_homoglyphs`` package ships
and keeps current, and each small capital as its letter: ``ᴀlice`` is ``alice``), with the
accents on Latin letters dropped (``álice``, an a and a combining accent, is ``alice``) and the
separators Django allows (``- _ . @ +``) left out (``bob.`` is ``bob``).
"""

from __future__ import annotations

import re
import unicodedata

from confusable_homoglyphs import confusables

# Look-alikes within ASCII itself (after case folding), as Unicode's confusables list maps them.
_ASCII_LOOKALIKES = {"0": "o", "1": "l", "|": "l"}
SEPARATORS = "-_.@+"
# The Latin small capitals (ᴀ ʙ ᴄ ... ꜱ ... ꞯ), each as its letter: the confusables list maps
# only some of them (ᴄ ᴏ ꜱ, not ᴀ ʙ ᴇ), and one in a name passes for the letter. Their modifier
# forms (ᶦ ᶫ) become them in NFKC; a ligature or a turned one (ᴁ ʁ) looks like no one letter.
# Found in the blocks Unicode gives them (IPA, the phonetic extensions, Latin Extended-D to G):
# the whole of Unicode would take a third of a second at every start.
_LATIN_BLOCKS = ((0x0250, 0x02B0), (0x1D00, 0x1DC0), (0xA720, 0xA800), (0xAB30, 0xAB70),
                 (0x10780, 0x107C0), (0x1DF00, 0x1E000))  # fmt: skip
_SMALL_CAPITAL = re.compile(r"LATIN (?:CAPITAL )?LETTER SMALL CAPITAL ([A-Z])")
_SMALL_CAPITALS = {
    chr(code): found[1].lower()
    for start, end in _LATIN_BLOCKS
    for code in range(start, end)
    if (found := _SMALL_CAPITAL.fullmatch(unicodedata.name(chr(code), "")))
}


def skeleton(name: str, separators: bool = False) -> str:
    """What ``name`` looks like: each letter as the Latin letter it passes for, case folded, a
    Latin letter's accents dropped, and the separators left out (``separators``: kept, each as
    ``-``)."""
    shown: list[str] = []
    for char in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).casefold()):
        if unicodedata.category(char) == "Mn" and shown and shown[-1].isascii():
            continue  # an accent on a Latin letter (a Thai or Burmese vowel sign stays)
        if char in SEPARATORS:
            if separators:
                shown.append("-")
            continue
        if char in _SMALL_CAPITALS:
            char = _SMALL_CAPITALS[char]
        elif not char.isascii():
            homoglyphs = confusables.confusables_data.get(char, ())
            char = next((h["c"] for h in homoglyphs if h["c"].isascii()), char)
        shown.append(_ASCII_LOOKALIKES.get(char, char.casefold()))
    return unicodedata.normalize("NFC", "".join(shown)).replace("rn", "m")


def mixes_scripts(name: str) -> bool:
    """Letters of more than one script (digits and ``- _ . @ +`` go with any)."""
    return confusables.is_mixed_script(unicodedata.normalize("NFKC", name))


def refusal(name: str) -> str | None:
    """Why ``name`` may not be taken (in the player's words), or None."""
    from django.utils import timezone
    from django.utils.translation import gettext as _

    from ..models import COMPUTER_USERNAME, GUEST_USERNAME, NameReservation, NameSkeleton

    if mixes_scripts(name):
        return _("Write your name in one alphabet (digits and - _ . @ + may go with it).")
    shown = skeleton(name)
    computer = skeleton(COMPUTER_USERNAME.format(""), separators=True)  # "computer-"
    if skeleton(name, separators=True).startswith(computer) or shown == computer.rstrip("-"):
        return _("Names starting with “computer-” belong to the computer players: choose another.")
    # A guest's name ("Guest 4821") has a space no sign-up name may have, but "guest4821" (or
    # "Guest_4821") passes for it all the same: "guest" and digits (0 and 1 look like o and l).
    guest = skeleton(GUEST_USERNAME.format("")).strip()
    looks_like_a_guest = re.fullmatch(re.escape(guest) + r"[\dlo]+", shown)
    # A deleted account's name stays out of reach for a while (settings.DELETED_NAME_DAYS).
    kept = NameReservation.objects.filter(skeleton=shown, until__gt=timezone.now())
    if looks_like_a_guest or NameSkeleton.objects.filter(skeleton=shown).exists() or kept.exists():
        return _("This name looks too much like another player's: choose another.")
    return None
