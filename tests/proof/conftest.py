"""The campaigns count what they tried; the counts are printed when a module's tests end
(they are the figures quoted in closing notes), whether or not ``-s`` is given."""

from __future__ import annotations

from collections import Counter

import pytest


@pytest.fixture(scope="module")
def figures(request):
    counts: Counter = Counter()
    yield counts
    plugins = request.config.pluginmanager
    reporter = plugins.get_plugin("terminalreporter")
    if counts and reporter is not None:
        name = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
        line = f"{name}: " + ", ".join(f"{n} {what}" for what, n in counts.items())
        with plugins.get_plugin("capturemanager").global_and_fixture_disabled():
            reporter.write_line("\n" + line)
