"""The card faces, drawn by us: one SVG sprite (``static/img/cards.svg``) with a ``<symbol>``
for each of the 33 cards (``c9H``, ``cTS``, ``cJK``...), which pages show with
``<svg><use href="cards.svg#c9H"/></svg>``. One small file, cached once, sharp at any size.

The suit signs and the court figures are drawn in ``currentColor``: the page's stylesheet gives
each suit its colour (red and black, or four colours), and the colour reaches into the sprite
through ``<use>``. ``manage.py draw_cards`` writes the file; a test checks it is up to date.
"""

from __future__ import annotations

from ..engine.cards import CODES

WIDTH, HEIGHT = 200, 280
CENTRE = (WIDTH // 2, HEIGHT // 2)

# Each sign in a 100 x 100 box.
SUITS = {
    "H": '<path d="M50 92C20 68 4 50 4 30 4 14 16 4 29 4c10 0 17 6 21 15 4-9 11-15 21-15 13 0 '
    '25 10 25 26 0 20-16 38-46 62z"/>',
    "D": '<path d="M50 2l38 48-38 48-38-48z"/>',
    "S": '<path d="M50 4c12 20 46 36 46 58 0 14-10 22-21 22-9 0-17-4-21-11 2 11 6 19 14 25H32c8-6 '
    '12-14 14-25-4 7-12 11-21 11C14 84 4 76 4 62 4 40 38 24 50 4z"/>',
    "C": '<circle cx="50" cy="27" r="21"/><circle cx="27" cy="58" r="21"/>'
    '<circle cx="73" cy="58" r="21"/><circle cx="50" cy="52" r="10"/>'
    '<path d="M46 55c0 20-6 33-14 43h36c-8-10-14-23-14-43z"/>',
}

# Where the pips of each number card go (their centres); those below the middle are turned.
LEFT, MID, RIGHT = 62, 100, 138
FOUR_ROWS = (62, 114, 166, 218)
THREE_ROWS = (62, 140, 218)
SIDES = [(x, y) for x in (LEFT, RIGHT) for y in THREE_ROWS]
PIPS = {
    "7": [*SIDES, (MID, 101)],
    "8": [*SIDES, (MID, 101), (MID, 179)],
    "9": [*[(x, y) for x in (LEFT, RIGHT) for y in FOUR_ROWS], (MID, 140)],
    "T": [*[(x, y) for x in (LEFT, RIGHT) for y in FOUR_ROWS], (MID, 88), (MID, 192)],
}
PIP = 36
LABELS = {"T": "10"}

TEXT = 'font-family="Georgia,\'DejaVu Serif\',serif" font-weight="700" text-anchor="middle"'
SKIN, GOLD, HAIR, LINE = "#f2c9a0", "#e0b020", "#6b3a1e", "#3b2a1a"

# The court figures, the top half of the card's inner frame (120 x 102); the robe is in the
# suit's colour. Each card shows the figure twice, head to head, as printed decks do.
HEAD = (
    f'<circle cx="60" cy="52" r="17" fill="{SKIN}" stroke="{LINE}" stroke-width="2"/>'
    '<circle cx="54" cy="50" r="2" fill="#222"/><circle cx="66" cy="50" r="2" fill="#222"/>'
    f'<path d="M55 59q5 4 10 0" fill="none" stroke="{LINE}" stroke-width="2"/>'
)
ROBE = (
    f'<path d="M8 102c4-26 26-34 52-34s48 8 52 34z" fill="currentColor" stroke="{LINE}" '
    'stroke-width="2"/>'
    f'<path d="M40 71l20 20 20-20" fill="none" stroke="{GOLD}" stroke-width="5"/>'
)
FIGURES = {
    "K": ROBE
    + HEAD
    + f'<path d="M46 58c2 18 26 18 28 0-6 6-22 6-28 0z" fill="{HAIR}"/>'
    + f'<path d="M39 38l3-24 9 12 9-16 9 16 9-12 3 24z" fill="{GOLD}" stroke="{LINE}" '
    'stroke-width="2"/>',
    "Q": f'<path d="M38 80c-6-30 0-50 22-50s28 20 22 50z" fill="{HAIR}"/>'
    + ROBE
    + HEAD
    + f'<path d="M45 36l4-11 6 7 5-10 5 10 6-7 4 11z" fill="{GOLD}" stroke="{LINE}" '
    'stroke-width="2"/><circle cx="60" cy="26" r="3" fill="#c0262d"/>',
    "J": ROBE
    + HEAD
    + f'<path d="M42 42c0-18 36-18 36 0z" fill="currentColor" stroke="{LINE}" stroke-width="2"/>'
    + f'<path d="M76 36c14-8 24-22 22-30-8 6-16 16-24 26z" fill="{GOLD}" stroke="{LINE}" '
    'stroke-width="2"/>',
}
JOKER = (
    f'<circle cx="100" cy="150" r="30" fill="{SKIN}" stroke="{LINE}" stroke-width="2"/>'
    '<circle cx="90" cy="146" r="3" fill="#222"/><circle cx="110" cy="146" r="3" fill="#222"/>'
    f'<path d="M86 160q14 12 28 0" fill="none" stroke="{LINE}" stroke-width="3"/>'
    f'<path d="M70 132C58 96 40 80 30 76c14 20 24 40 30 58zM84 124c-4-40 10-70 16-78 6 8 20 38 '
    f'16 78zM130 132c12-36 30-52 40-56-14 20-24 40-30 58z" stroke="{LINE}" stroke-width="2" '
    'fill="#7b2cbf"/>'
    f'<path d="M66 134c20-10 48-10 68 0" stroke="{LINE}" stroke-width="6" fill="none"/>'
    f'<circle cx="30" cy="76" r="7" fill="{GOLD}"/><circle cx="100" cy="44" r="7" '
    f'fill="{GOLD}"/><circle cx="170" cy="76" r="7" fill="{GOLD}"/>'
    f'<path d="M62 184l38 30 38-30 8 40H54z" fill="#c0262d" stroke="{LINE}" stroke-width="2"/>'
)
FACE = (
    '<rect x="1" y="1" width="198" height="278" rx="14" fill="#fdfcf8" stroke="#8a8f98" '
    'stroke-width="2"/>'
)


def _turned(markup: str) -> str:
    """The same drawing turned half a turn about the card's centre."""
    return f'<g transform="rotate(180 {CENTRE[0]} {CENTRE[1]})">{markup}</g>'


def _pip(suit: str, x: float, y: float, size: float = PIP) -> str:
    half = size / 2
    box = f'x="{x - half:g}" y="{y - half:g}" width="{size:g}" height="{size:g}"'
    pip = f'<use href="#s{suit}" {box}/>'
    return _turned_about(pip, x, y) if y > CENTRE[1] else pip


def _turned_about(markup: str, x: float, y: float) -> str:
    return f'<g transform="rotate(180 {x:g} {y:g})">{markup}</g>'


def _corner(rank: str, suit: str) -> str:
    label = LABELS.get(rank, rank)
    size = 34 if len(label) > 1 else 40
    return (
        f'<text x="24" y="46" font-size="{size}" fill="currentColor" {TEXT}>{label}</text>'
        f'<use href="#s{suit}" x="10" y="54" width="28" height="28"/>'
    )


def _card(code: str) -> str:
    if code == "JK":
        letters = "".join(
            f'<text x="22" y="{36 + 26 * i}" font-size="24" fill="#7b2cbf" {TEXT}>{c}</text>'
            for i, c in enumerate("JOKER")
        )
        body = letters + _turned(letters) + JOKER
        return f'<symbol id="cJK" viewBox="0 0 {WIDTH} {HEIGHT}"><use href="#face"/>{body}</symbol>'
    rank, suit = code
    corner = f'<g id="i{code}">{_corner(rank, suit)}</g>'
    corners = corner + f'<use href="#i{code}" transform="rotate(180 100 140)"/>'
    if rank == "A":
        body = _pip(suit, *CENTRE, size=96)
    elif rank in FIGURES:
        frame = (
            '<rect x="40" y="36" width="120" height="208" rx="6" fill="#f6efdc" '
            'stroke="currentColor" stroke-width="2"/>'
        )
        half = f'<use href="#f{rank}" x="40" y="38" width="120" height="102"/>'
        sign = f'<use href="#s{suit}" x="46" y="42" width="22" height="22"/>'
        body = frame + half + sign + _turned(half + sign)
    else:
        body = "".join(_pip(suit, x, y) for x, y in PIPS[rank])
    return (
        f'<symbol id="c{code}" viewBox="0 0 {WIDTH} {HEIGHT}" fill="currentColor">'
        f'<use href="#face"/>{corners}{body}</symbol>'
    )


def sprite() -> str:
    """The whole sprite: the shared parts, then one symbol per card."""
    parts = [f'<symbol id="face" viewBox="0 0 {WIDTH} {HEIGHT}">{FACE}</symbol>']
    parts += [
        f'<symbol id="s{suit}" viewBox="0 0 100 100" fill="currentColor">{shape}</symbol>'
        for suit, shape in SUITS.items()
    ]
    parts += [
        f'<symbol id="f{rank}" viewBox="0 0 120 102">{drawing}</symbol>'
        for rank, drawing in FIGURES.items()
    ]
    parts += [_card(code) for code in CODES]
    body = "\n".join(parts)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg">\n'
        "<!-- Two-hand euchre's card faces, drawn for the site (games/card_faces.py); "
        "CC0 1.0: no rights reserved. -->\n"
        f"{body}\n</svg>\n"
    )
