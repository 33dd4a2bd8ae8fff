"""The report: the server's tracebacks read from its log, counts, the presence rows and
database connections left behind, and the failing classes grouped by their traceback."""

from __future__ import annotations

import collections
import dataclasses
import re
from pathlib import Path

from .values import ROOT

# ---------------------------------------------------------------------------------------------
# The server's log: tracebacks


@dataclasses.dataclass
class Trace:
    header: str
    text: str
    exception: str
    ours: str  # the deepest frame in this project's code
    last: str  # the deepest frame
    tail: str = ""  # the last frames, outermost first

    def signature(self) -> str:
        return f"{self.exception.split(':', 1)[0]} at {self.ours or self.last}"


FRAME = re.compile(r'^\s+File "([^"]+)", line (\d+), in (.+)$')


def tracebacks(log: str) -> list[Trace]:
    lines = log.splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() != "Traceback (most recent call last):" and not lines[i].lstrip(
            " +|"
        ).startswith("Exception Group Traceback"):
            i += 1
            continue
        header = next(
            (
                lines[j]
                for j in range(i - 1, max(-1, i - 6), -1)
                if lines[j].strip() and not lines[j].startswith(" ")
            ),
            "",
        )
        start, exception, frames = i, "", []
        i += 1
        while i < len(lines):
            line = lines[i]
            match = FRAME.match(line)
            if match:
                frames.append(match.groups())
            elif line.strip() in {"", "Traceback (most recent call last):"} or line.startswith(
                ("During handling of the above", "The above exception")
            ):
                pass
            elif not line.startswith((" ", "\t")):
                exception = line
                nxt = lines[i + 1] if i + 1 < len(lines) else ""
                if not (
                    nxt.startswith(("During handling", "The above exception"))
                    or (
                        nxt == ""
                        and i + 2 < len(lines)
                        and lines[i + 2].startswith(("During handling", "The above exception"))
                    )
                ):
                    i += 1
                    break
            i += 1
        root = str(ROOT)
        ours = [f for f in frames if f[0].startswith(root) and "/.venv/" not in f[0]]

        def fmt(f, root=root):
            return f"{f[0].replace(root + '/', '')}:{f[1]} in {f[2]}"

        short = [f"{Path(f[0]).name}:{f[1]} {f[2]}" for f in frames[-5:]]
        out.append(
            Trace(
                header=header,
                text="\n".join(lines[start:i]),
                exception=exception,
                ours=fmt(ours[-1]) if ours else "",
                last=fmt(frames[-1]) if frames else "",
                tail=" > ".join(short),
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# The report


def counts(counter: collections.Counter) -> str:
    def order(item):
        k = item[0]
        return (0, int(k)) if k.isdigit() else (1, k)

    return ", ".join(f"{k}: {v}" for k, v in sorted(counter.items(), key=order))


def trace_summary(trace: Trace) -> str:
    return (
        f"      log: {trace.header[:160]}\n"
        f"      raised: {trace.exception[:300]}\n"
        f"      at: {trace.ours or '-'} (deepest: {trace.last})\n"
        f"      last frames: {trace.tail}"
    )


def presence_rows(url: str) -> str:
    try:
        import psycopg

        with psycopg.connect(url) as conn:
            rows = conn.execute(
                "SELECT u.username, count(*) FROM games_connection c JOIN auth_user u"
                " ON u.id = c.user_id GROUP BY u.username ORDER BY u.username"
            ).fetchall()
        return ", ".join(f"{name}: {n}" for name, n in rows) or "none"
    except Exception as error:  # noqa: BLE001
        return f"(could not be read: {error!r})"


def database_connections(url: str) -> int | None:
    try:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres") as conn:
            return conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)
            ).fetchone()[0]
    except Exception:
        return None


def print_causes(entries, unit: str, *, traces_of, outcome_of, label_of, reproduce) -> None:
    """Failing classes (key, items, ...) replayed alone, grouped by the traceback the replay
    left (the most failures first): each cause with its classes, one reproduction and the
    traceback's last lines. The accessors read an entry of one kind (http or websocket)."""
    causes: dict[str, list] = collections.defaultdict(list)
    for entry in entries:
        traces_ = traces_of(entry)
        replayed = f"no traceback ({outcome_of(entry)} replayed)"
        causes[traces_[0].signature() if traces_ else replayed].append(entry)
    ranked = sorted(causes.items(), key=lambda kv: -sum(len(e[1]) for e in kv[1]))
    for number, (cause, group) in enumerate(ranked, 1):
        total = sum(len(e[1]) for e in group)
        labels = collections.Counter(label_of(item) for e in group for item in e[1])
        print(f"\n  {number}. {cause}: {total} {unit} in {len(group)} classes ({counts(labels)})")
        for key, items, *_rest in group[:12]:
            print(f"     {len(items):5d} x {key}")
        if len(group) > 12:
            print(f"     ... and {len(group) - 12} more classes")
        print(f"     reproduction (replayed alone: {outcome_of(group[0])}):")
        print(reproduce(group[0]))
        for trace in traces_of(group[0])[:1]:
            print(trace_summary(trace))
