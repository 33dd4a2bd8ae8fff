"""Where the web processes' CPU goes during the play window (``--profile``): py-spy samples
every web process from outside (nothing in the site changes to be profiled), and the samples
are summed by what the code does: the move's service, the database driver, the boards'
rendering, the session check, the websocket's own work...

py-spy's ``raw`` output is one line a distinct stack, its frames from the root to the leaf
separated by ``;``, then the number of samples. A sample counts towards each kind its stack
passes through (inclusive: the board's rendering includes the Jinja2 it runs), and towards
one kind as its own (the innermost frame that names a kind)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

# What the code does, by the first frame (from the leaf up) that matches: its function name
# and file. Order matters: the more particular first.
KINDS = [
    ("session check", r"session_is_users|check_session"),
    ("move service", r"move_on_locked|move_apply|match_save|match_locked"),
    ("state decode/encode", r"state_from_json|state_to_json"),
    ("board context", r"board_context|seat_context|presentation/"),
    ("board render (Jinja2)", r"render_board|jinja2/"),
    ("room and tables", r"realtime/room\.py|realtime/tables\.py|read_tables"),
    ("API shapes and feeds", r"public/shapes\.py|api/feeds\.py|api/streams\.py"),
    ("presence", r"connection_open|connection_close|connections_touch|presence"),
    ("channel layer (Redis)", r"channels_redis|redis/|channels/layers"),
    ("database driver", r"psycopg|django/db/"),
    ("json", r"json/|ujson"),
    ("websocket protocol (deflate)", r"websockets/|wsproto|zlib|permessage"),
    ("http and ASGI", r"uvicorn/|asgiref/|django/core/handlers|starlette|h11|httptools"),
    ("Django request/response", r"django/"),
    ("asyncio", r"asyncio/|uvloop"),
]
PATTERNS = [(name, re.compile(pattern)) for name, pattern in KINDS]


def available() -> bool:
    return shutil.which("py-spy", path=str(Path(sys.executable).parent)) is not None or bool(
        shutil.which("py-spy")
    )


def record(pids: list[int], seconds: float, out: Path) -> list[subprocess.Popen]:
    """Start sampling each of ``pids`` (and its children) for ``seconds``, to ``out.<pid>``."""
    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or "py-spy"
    command = [spy, "record", "--subprocesses", "--format", "raw", "--rate", "200", "--gil",
               "--nonblocking", "--duration", str(max(1, int(seconds)))]  # fmt: skip
    return [
        subprocess.Popen(
            [*command, "--pid", str(pid), "--output", f"{out}.{pid}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for pid in pids
    ]


def summary(files: list[Path]) -> tuple[Counter, Counter, int]:
    """(inclusive samples by kind, own samples by kind, samples in all) over ``files``, the
    samples of idle threads (waiting in select/epoll, a lock or a queue) left out."""
    inclusive: Counter = Counter()
    own: Counter = Counter()
    total = 0
    for path in files:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit() or _idle(stack):
                continue
            samples = int(count)
            total += samples
            frames = stack.split(";")
            seen = set()
            for frame in frames:
                for name, pattern in PATTERNS:
                    if name not in seen and pattern.search(frame):
                        seen.add(name)
            for name in seen:
                inclusive[name] += samples
            own[_own_kind(frames)] += samples
    return inclusive, own, total


def _own_kind(frames: list[str]) -> str:
    for frame in reversed(frames):
        for name, pattern in PATTERNS:
            if pattern.search(frame):
                return name
    return "other"


IDLE = re.compile(r"\b(select|poll|epoll_wait|_worker \(concurrent|wait \(threading|_run_once)\b")


def _idle(stack: str) -> bool:
    leaf = stack.rsplit(";", 1)[-1]
    return bool(IDLE.search(leaf)) or "(threading.py" in leaf and "wait" in leaf


def report(files: list[Path]) -> list[str]:
    inclusive, own, total = summary(files)
    if not total:
        return ["profile: no samples (is py-spy installed? it needs ptrace: run as root)"]
    lines = [f"profile: {total} samples holding the GIL in the web processes (py-spy, 200 a s)",
             f"  {'kind':32} {'inclusive':>9} {'own':>6}"]  # fmt: skip
    for name, _pattern in KINDS:
        if inclusive[name] or own[name]:
            lines.append(
                f"  {name:32} {100 * inclusive[name] / total:8.1f}% {100 * own[name] / total:5.1f}%"
            )
    lines.append(f"  {'other':32} {'':9} {100 * own['other'] / total:5.1f}%")
    return lines


if __name__ == "__main__":  # the summary of files already recorded
    print("\n".join(report([Path(p) for p in sys.argv[1:]])))
