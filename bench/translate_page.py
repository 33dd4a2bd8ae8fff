"""The footer's "Improve this translation": what one request to ``POST /translate/`` costs the
server, for an honest page and for the worst text anyone can post.

Each request goes through the whole Django path (middleware, session, the view, the page's
template) with Django's test client, as a logged-in player reading Thai (an unspaced script,
the slower case). Prints the CPU time (``time.process_time``) per request, median and max
over ``--requests`` of each case, and the pattern searches the answer took where the code
counts them. Run it before and after a change, in the same sitting.

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    .venv/bin/python bench/translate_page.py [--requests 15]

Cases: the rules page's own words (the longest page: what an honest click sends); the attack
pass's 200,000 characters of "ก " (400 KB); and every Thai message of the catalogue, over and
over up to the limit (every message's words are on it: the most patterns a text can wake).
It makes a database of its own (``<name>_bench_translate``), dropped and created afresh.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import fresh_database  # noqa: E402


class MainText(HTMLParser):
    """The words of a page's ``<main>``, as the footer's script sends them (innerText)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.skip, self.words = 0, 0, []

    def handle_starttag(self, tag, attrs) -> None:
        self.depth += tag == "main" or (self.depth > 0 and tag not in VOID)
        self.skip += tag in ("script", "style", "template")

    def handle_endtag(self, tag) -> None:
        if self.depth:
            self.depth -= 1
        self.skip -= tag in ("script", "style", "template") and self.skip > 0

    def handle_data(self, data) -> None:
        if self.depth and not self.skip:
            self.words.append(data)


VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=15, help="requests of each case")
    args = parser.parse_args()
    env = {**os.environ, "DEBUG": "0", "DJANGO_SETTINGS_MODULE": "euchre_site.settings"}
    env.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    if not env.get("DATABASE_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL): the benchmark runs production-style")
    env["DATABASE_URL"] = fresh_database(env["DATABASE_URL"], "bench_translate")
    env.pop("REDIS_URL", None)  # the rate limit counts in this process's memory
    env["TRANSLATE_PAGES_PER_MINUTE"] = "1000000"  # the bench asks far more often than a player
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import setup_test_environment

    from games.i18n import catalogues

    setup_test_environment()  # the answers carry their template's context (what was found)

    user = get_user_model().objects.create_user("reader")
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "th"
    reader = MainText()
    reader.feed(client.get("/rules/").content.decode())
    rules = "\n".join(" ".join(w.split()) for w in reader.words if w.strip())
    every = " ".join(e.msgstr for e in catalogues.read(catalogues.path_of("th")) if e.msgstr)
    limit = getattr(catalogues, "PAGE_TEXT_LIMIT", 200_000)
    cases = {
        f"the rules page ({len(rules):,} characters)": rules,
        "200,000 characters of 'ก '": "ก " * 100_000,
        f"every message, to {limit:,} characters": (every * (limit // len(every) + 1))[:limit],
    }
    searches = getattr(catalogues, "page_messages", None)
    print(f"POST /translate/ in Thai, {args.requests} requests a case: CPU ms per request")
    print(f"{'case':<44} {'median':>8} {'max':>8} {'found':>6} {'searches':>9}")
    for name, text in cases.items():
        times = []
        for _ in range(args.requests):
            start = time.process_time()
            answer = client.post("/translate/", {"page": "/rules/", "text": text})
            times.append(1000 * (time.process_time() - start))
            assert answer.status_code == 200, answer.status_code
        found = answer.context["page"].paginator.count
        counted = searches("th", text).searches if searches else "-"
        print(f"{name:<44} {statistics.median(times):>8.1f} {max(times):>8.1f} {found:>6} "
              f"{counted!s:>9}")  # fmt: skip


if __name__ == "__main__":
    main()
