"""The fair-play simulation: simulated accounts play rated matches with each other through the
site's own services, each match is analysed as the worker does and the signals computed after
it (``services.match_analyse`` calls ``fairplay_signals.signals_check``); prints, per kind of
account, how many were flagged and after how many rated matches, the false-flag rate on
honest accounts, and each signal's measured distribution (what the thresholds are set from:
docs/FAIRPLAY.md).

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    .venv/bin/python bench/fairplay.py [--honest 184] [--rounds 12] [--samples 8] [--seed 1]

The accounts: honest players (the medium computer with noise, the hard computer with noise,
and mixes of random strength, each thinking like a person: longer on decisions with more
options, a log-normal spread), ``--cheaters`` players who follow the hard computer's choice on
most decisions through the page's socket with the even think times of copying an answer
from another tab, ``--pairs`` pairs that trade rated wins (one resigns balanced positions or
leaves early against the other; they share an address), and ``--stallers`` who let the clock
run out of most matches they are losing. Each round pairs every account once (a trading pair
with each other on most rounds), a challenge accepted, moves made with ``time-machine``
moving the clock by each think time (so the moves, the clocks and the insights' think times
are what a person's would be), then the analysis with ``--samples`` opponent hands a decision
(production: 300; see docs/FAIRPLAY.md). It makes a database of its own
(``<name>_bench_fairplay``), dropped and created afresh.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load.servers import fresh_database  # noqa: E402

HONEST = ("medium", "hard", "mixed")


class Account:
    def __init__(self, user, kind: str, rng: random.Random, partner=None):
        self.user, self.kind, self.rng = user, kind, rng
        self.partner = partner
        self.played = 0
        self.flagged_after: int | None = None  # by the flag rows the worker's path raised
        # After each of its rated matches: (matches played, [(signal, value, threshold,
        # decisions counted or None)]).
        self.record: list = []
        # Honest strength: the share of decisions taken from the hard computer, the medium's.
        if kind == "medium":
            self.hard, self.random = 0.0, rng.uniform(0.05, 0.2)
        elif kind == "hard":
            self.hard, self.random = rng.uniform(0.5, 0.75), rng.uniform(0.0, 0.08)
        elif kind == "cheater":
            self.hard, self.random = rng.uniform(0.8, 0.95), 0.0
        else:  # mixed, and the traders' and stallers' own play
            self.hard, self.random = rng.uniform(0.0, 0.6), rng.uniform(0.0, 0.25)
        self.pace = rng.uniform(1.2, 3.5)  # a person's median seconds for a simple decision

    @property
    def honest(self) -> bool:
        return self.kind in HONEST

    def choose(self, view, legal: list[str]) -> str:
        from games.bots import choose

        roll = self.rng.random()
        if roll < self.random:
            return self.rng.choice(legal)
        strength = "hard" if roll < self.random + self.hard else "medium"
        return choose(strength, view, self.rng)

    def think(self, legal: list[str], phase: str) -> float:
        """Seconds before the move: a person thinks longer the more options they weigh and on
        bids; a cheater copying another tab's answer takes an even few seconds whatever."""
        if self.kind == "cheater":
            return self.rng.uniform(3.0, 6.0)
        if len(legal) == 1:
            return self.rng.uniform(0.4, 1.2)
        weight = 1.0 + 0.45 * (len(legal) - 1) + (0.8 if phase != "play" else 0.0)
        return min(100.0, self.pace * weight * math.exp(self.rng.gauss(0, 0.55)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--honest", type=int, default=184)
    parser.add_argument("--cheaters", type=int, default=6)
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--stallers", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=12, help="rounds every account plays")
    parser.add_argument(
        "--special-rounds",
        type=int,
        default=20,
        help="rounds the cheating accounts play at most (past --rounds: only"
        " those not yet flagged, each against an honest account)",
    )
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--target", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--recheck",
        type=int,
        default=0,
        help="no simulation: analyse again at production's samples N matches of each kind of"
        " account of the last run's database, and compare agreement and loss",
    )
    parser.add_argument(
        "--windows",
        action="store_true",
        help="no simulation: every window of every account of the --seed run's database read"
        " again from its rows, as the worker reads them: evenness and timing under today's"
        " thresholds (for a signal added after the run)",
    )
    parser.add_argument("--out", help="write the run's signals to this JSON file")
    parser.add_argument(
        "--evaluate", help="no simulation: report a run's JSON file under today's thresholds"
    )
    args = parser.parse_args()
    if args.evaluate:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
        os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnop")
        import django

        django.setup()
        run = json.loads(Path(args.evaluate).read_text())
        report(run)
        timing_scores(run)
        return
    env = {**os.environ, "DEBUG": "0", "DJANGO_SETTINGS_MODULE": "euchre_site.settings"}
    env.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    if not env.get("DATABASE_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL): the simulation runs production-style")
    if args.recheck or args.windows:
        env["DATABASE_URL"] = (
            env["DATABASE_URL"].rsplit("/", 1)[0]
            + "/"
            + (env["DATABASE_URL"].rsplit("/", 1)[1] + f"_bench_fairplay{args.seed}")
        )
        os.environ.update(env)
        import django

        django.setup()
        windows() if args.windows else recheck(args.recheck)
        return
    env["DATABASE_URL"] = fresh_database(env["DATABASE_URL"], f"bench_fairplay{args.seed}")
    env.pop("REDIS_URL", None)
    os.environ.pop("REDIS_URL", None)  # the rate limits: the process's own (locmem) cache
    env["METRICS"] = "0"
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)

    import django

    django.setup()
    import time_machine

    started, cpu = time.perf_counter(), time.process_time()

    def written(rounds: int) -> dict:
        """The run so far (``rounds`` played), written to --out after every round: a run cut
        short can still be evaluated."""
        run = {
            "args": vars(args),
            "rounds_played": rounds,
            "minutes": round((time.perf_counter() - started) / 60, 1),
            "cpu_minutes": round((time.process_time() - cpu) / 60, 1),
            "matches": sum(a.played for a in accounts) // 2,
            "accounts": [{"kind": a.kind, "record": a.record} for a in accounts],
        }
        if args.out:
            Path(args.out).write_text(json.dumps(run))
        return run

    with time_machine.travel(datetime(2026, 1, 5, 9, tzinfo=UTC), tick=False) as clock:
        accounts = make_accounts(args)
        rounds = simulate(args, accounts, clock, written)
    report(written(rounds))
    timing_scores(written(rounds))


def make_accounts(args) -> list[Account]:
    from django.contrib.auth import get_user_model

    from games import services

    rng = random.Random(args.seed)
    users = get_user_model().objects
    accounts = []

    def make(kind: str, n: int, address: str | None = None, partner=None) -> Account:
        user = users.create_user(f"{kind}{n}")
        services.account_event(
            user=user, kind="login", address=address or f"10.0.{n // 250}.{n % 250}"
        )
        account = Account(user, kind, random.Random(rng.getrandbits(64)), partner)
        accounts.append(account)
        return account

    serial = 0
    for n in range(args.honest):
        serial += 1
        make(HONEST[n % 3], serial)
    for _ in range(args.cheaters):
        serial += 1
        make("cheater", serial)
    for p in range(args.pairs):
        serial += 1
        giver = make("giver", serial, address=f"192.168.9.{p}")
        serial += 1
        taker = make("taker", serial, address=f"192.168.9.{p}")
        giver.partner, taker.partner = taker, giver
    for _ in range(args.stallers):
        serial += 1
        make("staller", serial)
    return accounts


def simulate(args, accounts: list[Account], clock, written) -> int:
    """Plays the rounds (``written(rounds)`` after each); the rounds played."""
    from games import services
    from games.models import FairPlayFlag, Match, MatchStatus
    from games.services import fairplay_signals

    rng = random.Random(args.seed + 1)
    seen_flags: set[int] = set()
    honest = [a for a in accounts if a.honest]
    for number in range(max(args.rounds, args.special_rounds)):
        clock.shift(timedelta(hours=9))  # a round a day at most: the pair limit is per day
        if number < args.rounds:
            pool = list(accounts)
        else:  # the rounds past --rounds: the cheating accounts not yet flagged, each with
            # an honest opponent (or its partner)
            pool = [a for a in accounts if not a.honest and a.flagged_after is None]
            pool += rng.sample(honest, len(pool))
        rng.shuffle(pool)
        pairs = []
        for account in list(pool):
            if account.partner is not None and account in pool and rng.random() < 0.7:
                if account.partner in pool:
                    pool.remove(account)
                    pool.remove(account.partner)
                    pairs.append((account, account.partner))
        if number >= args.rounds:  # each cheating account with an honest one
            cheats = [a for a in pool if not a.honest]
            others = [a for a in pool if a.honest]
            pairs += list(zip(cheats, others, strict=False))
        else:
            pairs += list(zip(pool[::2], pool[1::2], strict=False))
        for a, b in pairs:
            match_id = play(args, a, b, clock, rng)
            if match_id is None:
                continue
            match = Match.objects.get(pk=match_id)
            if match.status != MatchStatus.FINISHED or not match.rated:
                continue
            a.played += 1
            b.played += 1
            services.match_analyse(match_id=match_id, samples=args.samples, signals=False)
            by_pk = {a.user.pk: a, b.user.pk: b}
            for checked in fairplay_signals.signals_check(match_id=match_id):
                account = by_pk[checked["player_id"]]
                account.record.append((account.played, [
                    (s["kind"], s["value"], s["threshold"], s["detail"].get("decisions"))
                    for s in checked["signals"]
                ]))  # fmt: skip
            flagged = set(
                FairPlayFlag.objects.filter(player_id__in=(a.user.pk, b.user.pk)).values_list(
                    "player_id", flat=True
                )
            )
            for account in (a, b):
                if account.user.pk in flagged and account.user.pk not in seen_flags:
                    seen_flags.add(account.user.pk)
                    account.flagged_after = account.played
        done = sum(a.played for a in accounts) // 2
        print(f"round {number + 1}: {done} rated matches", file=sys.stderr, flush=True)
        written(number + 1)
    return max(args.rounds, args.special_rounds)


def play(args, a: Account, b: Account, clock, rng: random.Random) -> int | None:
    """One rated match between ``a`` (challenging) and ``b``; its id."""
    from games import services
    from games.engine import legal_actions, view_for
    from games.models import MatchStatus
    from games.web.moves import move_submit

    challenge = services.challenge_create(user=a.user, challenged=b.user, target=args.target)
    clock.shift(timedelta(seconds=rng.uniform(3, 20)))
    match = services.challenge_accept(user=b.user, challenge_id=challenge.pk)
    by_user = {a.user.pk: a, b.user.pk: b}
    trade = a.partner is b
    giver = a if a.kind == "giver" else b
    while match.status == MatchStatus.ACTIVE:
        state = match.state
        seat = state.turn
        account = by_user[(match.player0_id, match.player1_id)[seat]]
        opponent = b if account is a else a
        me, them = state.scores[seat], state.scores[seat ^ 1]
        if trade and account is giver and match.move_count >= 6:
            if rng.random() < 0.5:
                services.match_resign(user=account.user, match_id=match.pk)
            else:  # leave: the clock runs out
                clock.shift(timedelta(seconds=(match.move_seconds or 120) + 1))
                services.match_expire(match_id=match.pk)
            break
        losing = them - me >= 4 or (them >= args.target - 2 and them - me >= 2)
        if losing and account.kind == "staller" and rng.random() < 0.25:
            clock.shift(timedelta(seconds=(match.move_seconds or 120) + 1))
            services.match_expire(match_id=match.pk)
            break
        if losing and account.honest and them - me >= 6 and rng.random() < 0.05:
            services.match_resign(user=account.user, match_id=match.pk)
            break
        if account.honest and rng.random() < 0.0004:  # a dropped connection: time runs out
            clock.shift(timedelta(seconds=(match.move_seconds or 120) + 1))
            services.match_expire(match_id=match.pk)
            break
        del opponent
        legal = [str(x) for x in legal_actions(state, seat)]
        action = account.choose(view_for(state, seat), legal)
        clock.shift(timedelta(seconds=account.think(legal, state.phase.value)))
        match = move_submit(
            user=account.user,
            match_id=match.pk,
            data={"action": action, "version": match.version},
            way="page_socket",
        ).match
    return match.pk


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def flagged_after(record: list) -> int | None:
    """The rated matches after which the account's signals first crossed today's thresholds
    (trading's as the run computed it: it depends on whether the pair share an address;
    timing's from the decisions it counted, when the run recorded them)."""
    from games.services.fairplay import LOW_IS_WORSE
    from games.services.fairplay_signals import THRESHOLDS, timing_limit

    for played, signals in record:
        for kind, value, threshold, *decisions in signals:
            if kind == "timing" and decisions and decisions[0]:
                threshold = timing_limit(decisions[0])
            elif kind != "trading" and kind in THRESHOLDS:
                threshold = THRESHOLDS[kind]
            if (value <= threshold) if kind in LOW_IS_WORSE else (value >= threshold):
                return played
    return None


def report(run: dict) -> None:
    from games.services.fairplay import LOW_IS_WORSE
    from games.services.fairplay_signals import THRESHOLDS

    args = run["args"]
    accounts = run["accounts"]
    print(f"{len(accounts)} accounts, {run['matches']} rated matches, {args['rounds']} rounds "
          f"({run.get('rounds_played', '?')} played) "
          f"(cheating accounts up to {args['special_rounds']}), analysis at {args['samples']} "
          f"samples, target {args['target']}, seed {args['seed']}: {run['minutes']} min "
          f"({run['cpu_minutes']} min of the simulation's CPU)")  # fmt: skip
    kinds = ("medium", "hard", "mixed", "cheater", "giver", "taker", "staller")
    print(f"{'kind':8} {'accounts':>8} {'flagged':>8}  after (rated matches)")
    for kind in kinds:
        group = [a for a in accounts if a["kind"] == kind]
        if not group:
            continue
        after = sorted(n for a in group if (n := flagged_after(a["record"])) is not None)
        print(f"{kind:8} {len(group):8} {len(after):8}  {after}")
    honest = [a for a in accounts if a["kind"] in HONEST]
    false = sum(1 for a in honest if flagged_after(a["record"]) is not None)
    print(f"false flags on honest accounts: {false}/{len(honest)} = {false / len(honest):.1%}")
    print("signal distributions: every computation after every match; per account its extreme")
    for signal, threshold in THRESHOLDS.items():
        low = signal in LOW_IS_WORSE
        for kind in kinds:
            every, extreme = [], {}
            for n, account in enumerate(accounts):
                if account["kind"] != kind:
                    continue
                for _, signals in account["record"]:
                    for name, value, *_ in signals:
                        if name == signal:
                            every.append(value)
                            was = extreme.get(n, value)
                            extreme[n] = min(was, value) if low else max(was, value)
            if not every:
                continue
            ext = sorted(extreme.values())
            print(f"  {signal:9} {kind:8} n={len(every):5} median={statistics.median(every):.3f} "
                  f"p1={percentile(every, 0.01):.3f} p99={percentile(every, 0.99):.3f} "
                  f"accounts' extremes: {ext[0]:.3f} .. {ext[-1]:.3f}, "
                  f"second {'lowest' if low else 'highest'} "
                  f"{(ext[1] if low else ext[-2]) if len(ext) > 1 else ext[0]:.3f} "
                  f"(threshold {threshold})")  # fmt: skip


def timing_score(value: float, decisions: int) -> float:
    """Timing on its threshold's scale, (value - the honest median)·√n: it flags at
    TIMING_NOISE whatever the window's size."""
    from games.services.fairplay_signals import THRESHOLDS

    return (value - THRESHOLDS["timing"]) * decisions**0.5


def timing_scores(run: dict) -> None:
    """Timing as its threshold reads it, (value - THRESHOLDS["timing"])·√n: per kind, each
    account's highest over its windows, and the rated matches after which it first reached
    today's TIMING_NOISE (what the noise allowance is set from)."""
    from games.services.fairplay_signals import THRESHOLDS, TIMING_NOISE

    print(f"timing as (value - {THRESHOLDS['timing']})·√n; flags at {TIMING_NOISE}:")
    for kind in ("medium", "hard", "mixed", "cheater", "giver", "taker", "staller"):
        highest, reached = [], []
        for account in run["accounts"]:
            if account["kind"] != kind:
                continue
            scores = [
                (played, timing_score(value, decisions))
                for played, signals in account["record"]
                for name, value, _threshold, *rest in signals
                if name == "timing" and rest and (decisions := rest[0])
            ]
            if scores:
                highest.append(max(score for _, score in scores))
                first = next((p for p, score in scores if score >= TIMING_NOISE), None)
                if first is not None:
                    reached.append(first)
        if highest:
            ordered = sorted(highest)
            print(f"  {kind:8} accounts {len(ordered):3}: highest {ordered[-1]:.2f}, next "
                  f"{ordered[-2] if len(ordered) > 1 else ordered[-1]:.2f}, median "
                  f"{statistics.median(ordered):.2f}, lowest {ordered[0]:.2f}; reached after "
                  f"{sorted(reached)}")  # fmt: skip


def windows() -> None:
    """Every account's windows after each of its rated matches, read again from the run's
    database with the signals' own reads and figures (``fairplay_signals``): per kind, the
    lowest evenness and highest timing (on its threshold's scale) over the windows with enough
    timed decisions, and the rated matches after which each account first crossed either."""
    from collections import defaultdict

    from django.contrib.auth import get_user_model

    from games.models import InsightDecision
    from games.services import fairplay_signals as fs

    matches = list(
        fs._rated_finished().order_by("finished_at", "pk").values("pk", "player0_id", "player1_id")
    )
    ids = [m["pk"] for m in matches]
    analyses = fs._analyses(ids)
    rows = InsightDecision.objects.filter(match_id__in=ids).values_list(*fs._CHOICE_FIELDS)
    by_match = fs._choices(rows, analyses)
    played = defaultdict(list)
    for m in matches:
        for player in (m["player0_id"], m["player1_id"]):
            played[player].append(m["pk"])
    names = dict(get_user_model().objects.values_list("pk", "username"))
    kinds: dict[str, list] = defaultdict(list)
    for player, theirs in played.items():
        lowest, highest, first = None, None, None
        for k in range(1, len(theirs) + 1):
            window = theirs[max(0, k - fs.WINDOW) : k]
            choices = [c for m in window for c in by_match.get((player, m), ())]
            unlike, timed, variation = fs.timing(choices)
            if unlike is None:
                continue
            score = timing_score(unlike, timed)
            lowest = variation if lowest is None else min(lowest, variation)
            highest = score if highest is None else max(highest, score)
            crossed = variation <= fs.THRESHOLDS["evenness"] or score >= fs.TIMING_NOISE
            if crossed and first is None:
                first = k
        if lowest is not None:
            kinds[names[player].rstrip("0123456789")].append((lowest, highest, first))
    print(f"evenness flags at or below {fs.THRESHOLDS['evenness']}, timing at "
          f"{fs.TIMING_NOISE} on its scale; windows of at least {fs.MIN_DECISIONS} timed "
          "decisions")  # fmt: skip
    for kind in ("medium", "hard", "mixed", "cheater", "giver", "taker", "staller"):
        group = kinds.get(kind)
        if not group:
            continue
        after = sorted(f for _, _, f in group if f is not None)
        print(f"  {kind:8} accounts {len(group):3}: evenness lowest {min(g[0] for g in group):.3f}"
              f" (highest of the accounts' lowest {max(g[0] for g in group):.3f}), timing highest"
              f" {max(g[1] for g in group):.2f}; crossed either after {after}")  # fmt: skip


def recheck(count: int) -> None:
    """Agreement and loss of ``count`` analysed matches of each kind of account, from the
    stored analysis (the run's samples) and from the analysis made again at production's
    ``ANALYSIS_SAMPLES``: what the thresholds would read at full strength."""
    from django.conf import settings

    from games.bots import analysis
    from games.models import Match, MatchAnalysis
    from games.services.fairplay_signals import AGREED, MATTERS

    kinds = ("medium", "hard", "mixed", "cheater")
    print(
        f"agreement and loss per decision, at the run's samples and at {settings.ANALYSIS_SAMPLES}"
    )
    for kind in kinds:
        rows = (
            MatchAnalysis.objects.filter(match__player0__username__startswith=kind)
            .select_related("match")
            .order_by("match_id")[:count]
        )
        tallies = {"run": [0, 0, 0.0, 0], "full": [0, 0, 0.0, 0]}
        for row in rows:
            match: Match = row.match
            moves = list(match.moves.order_by("seq").values_list("seat", "action"))
            full = analysis.as_json(
                analysis.analyse(int(match.seed), match.rules, moves, settings.ANALYSIS_SAMPLES)
            )
            for name, result in (("run", row.result), ("full", full)):
                for d in result["decisions"]:
                    if d["seat"] != 0:
                        continue  # the account of that kind sits in seat 0
                    known = [o["known"] for o in d["options"]]
                    t = tallies[name]
                    t[2] += d["accuracy_loss"]
                    t[3] += 1
                    if max(known) - min(known) >= MATTERS:
                        t[0] += 1
                        t[1] += d["accuracy_loss"] < AGREED
        for name, (n, agreed, lost, decisions) in tallies.items():
            share, average = agreed / max(1, n), lost / max(1, decisions)
            print(f"  {kind:8} {name:4} agreement {share:.3f} ({n} decisions that matter),"
                  f" loss {average:.4f} ({decisions} decisions)")  # fmt: skip


if __name__ == "__main__":
    main()
