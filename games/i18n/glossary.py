"""The game's terms, translated once: every page says them the same way.

One word per concept, in every language: a test checks that each language's catalogue uses its
glossary word wherever the English text uses the term, and that no two concepts share a word
(the trick is not the stock, the hand is not the bidding round, the rating is not the
leaderboard).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# (the English term as it appears in the site's texts, its translation, what it means)
TERMS = [
    ("right bower", _("right bower"), _("the jack of the trump suit: the highest card")),
    ("left bower", _("left bower"), _("the other jack of the same colour: second highest")),
    ("order it up", _("order it up"), _("make the upcard's suit trump as the non-dealer")),
    ("euchred", _("euchred"), _("the maker took fewer than three tricks")),
    ("march", _("march"), _("all five tricks taken by the maker")),
    ("trump", _("trump"), _("the suit that beats every other suit in this hand")),
    ("maker", _("maker"), _("the player who made trump: they need three tricks")),
    ("trick", _("trick"), _("one card from each player; the higher card takes both")),
    ("hand", _("hand"), _("everything from one deal to the next: five tricks")),
    ("round", _("round"), _("one chance for each player to bid: round one, then round two")),
    ("stock", _("stock"), _("the cards left after the deal, face down under the upcard")),
    ("turn", _("turn"), _("the moment when it is a player's move")),
    ("rating", _("rating"), _("a player's strength in points, changed by rated matches")),
    ("leaderboard", _("leaderboard"), _("the list of players ranked by rating")),
]

# Where an English text means the term, when the bare word would say too much or too little:
# "hand" is also the cards a player holds ("your hand") and part of the game's name
# ("two-hand"); a "rated" match is the rating's.
PATTERNS = {
    "trump": r"\btrump\b",
    "maker": r"(?<!\()\bmaker\b",
    "trick": r"\btricks?\b",
    "hand": r"(?<!two-)(?<!your )(?<!'s )(?<!see a )(?<!the )\bhands?\b",
    "round": r"\bround (one|two)\b",
    "stock": r"\bstock\b",
    "turn": r"\bturn\b",
    "rating": r"\b(ratings?|rated)\b",
    "leaderboard": r"\bleaderboard\b",
}

# Other forms of a word that a sentence's grammar needs (the verb's other persons, the noun
# with its article, its plural): a translation may use any of them for the term. By language.
FORMS = {
    "so": {
        "order it up": ("dalban", "dalbay", "dalbaa", "dalbado", "dalbato", "dalbaday"),
        "trick": ("gacmood", "gacmaha", "gacanta", "gacantii", "gacmo"),
        "hand": ("qaybinta", "qaybintan", "qaybintii", "qaybin kasta"),
        "round": ("wareegga", "wareeggii"),
        "stock": ("raska",),
        "turn": ("markaaga", "markiisa", "markii", "markaa"),
        "maker": ("samaynaha", "samaynuhu"),
        "trump": ("xukunka", "xukunkii"),
        "rating": ("qiimaynta", "qiimayntaada", "qiimee"),  # la qiimeeyay: rated
        "leaderboard": ("kala sarreynta",),
        "march": ("socodka", "socodyada", "socotay"),
        "euchred": ("yuukar",),
    },
    "ht": {"maker": ("ki fè atou", "ki te fè atou")},
    "th": {"rating": ("จัดอันดับ",)},  # แมตช์จัดอันดับ: a rated match
    "my": {"rating": ("အဆင့်သတ်မှတ်",)},  # to rate: အဆင့်သတ်မှတ်ပွဲ, a rated match
    "am": {
        "trick": ("ጥንዶች", "ጥንዱ", "ጥንዶቹ"),
        "hand": ("እጁ", "እጆች"),
        "round": ("ዙሩ",),
        "turn": ("ተራው", "ተራዎ", "ተራ"),
        "stock": ("ክምሩ",),
        "rating": ("ብቃት ነጥብ", "ብቃት ነጥቦች", "ብቃት ነጥባቸው"),
        "order it up": ("ይዘዙት", "አዘዘ", "ያዝዛል", "አዟል"),
    },
}

# Words that hold a term's letters but are other words, in the scripts that do not space their
# words: a check for the term looks past them (Thai "น้อยกว่า", fewer, is not the trick "ยก";
# "ตาม", to follow, is not the turn "ตา"; "เจ้ามือ", the dealer, is not the hand "มือ").
NOT_THE_TERM = {
    "th": ("น้อยกว่า", "ยกเลิก", "ยกเว้น", "ยกคำร้อง", "ยกรายงาน", "ตาม", "ตาราง", "เจ้ามือ"),
    "my": ("လက်ရှိ", "လက်ခံ", "အီလက်ထရစ်"),
}
