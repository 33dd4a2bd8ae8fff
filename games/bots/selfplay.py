"""The engine's self-play transcripts with the computer players at the table:

    python -m games.bots.selfplay --seed S --matches N [--policy random|easy|medium|hard] ...

the same options and lines as ``python -m games.engine.selfplay``, with ``--policy`` choosing
who makes both seats' decisions, each from its own seat's view.
"""

from __future__ import annotations

import sys

from games.engine import selfplay

from . import selfplay_policies


def main(argv: list[str] | None = None) -> int:
    policies = {"random": selfplay.random_policy, **selfplay_policies()}
    return selfplay.main(argv, policies, prog="python -m games.bots.selfplay")


if __name__ == "__main__":
    sys.exit(main())
