"""The site's metrics as an operator's scraper reads them: ``/metrics`` of a real server, with
the operator's token, parsed into samples."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

METRICS_TOKEN = "test-only-metrics-token"


def scrape(server, token: str | None = METRICS_TOKEN) -> tuple[int, str]:
    """``/metrics`` of ``server`` (with ``token``, if any): its status and its text."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    request = urllib.request.Request(f"{server.url}/metrics", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of a scrape, by its name and labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name, frozenset(sample.labels.items())] = sample.value
    return found


def value(found: dict, name: str, **labels: str) -> float:
    """One sample's value (0 if the scrape has none: a labelled series not yet counted)."""
    return found.get((name, frozenset(labels.items())), 0.0)


def scraped_until(server, ready, timeout: float = 15) -> dict:
    """Scrape ``server`` until ``ready(samples)``: what was counted as an answer went out is
    counted a moment after it (the push, the increment), so a scrape is waited for, never a
    time. AssertionError with the last scrape if it never comes."""
    deadline = time.monotonic() + timeout
    while True:
        status, text = scrape(server)
        assert status == 200, text
        found = samples(text)
        if ready(found):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"the metrics never came to what was awaited:\n{text}")
