"""The reference clients (clients/python, clients/js) run as programs run them."""

from __future__ import annotations

import subprocess
import sys

from tests.support.servers import ROOT, Server

PYTHON_CLIENT = ROOT / "clients" / "python" / "euchre_bot.py"


def bot(server: Server, token: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(PYTHON_CLIENT), "--url", server.url, *args],
        env={"EUCHRE_TOKEN": token, "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        text=True,
    )


JS_CLIENT = ROOT / "clients" / "js" / "euchre_bot.js"
