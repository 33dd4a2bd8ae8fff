"""What happens because time passed: the computer's turns, clocks running out, and offers
(rematches, challenges) lapsing; and what is too slow for a web process: the analysis of a
finished match, the mail of a correspondence match's turn.

Each is a task in the database queue (django-tasks with its database backend), enqueued by the
services in the same transaction as the change that made it due, and run by a worker process
(``manage.py run_worker``), never by a web process. A computer's move names the match version
it was queued for and does nothing once the match has moved on; a clock task names the time it
was due and does nothing unless it is the match's waiting one (``Match.clock_due``). So a
duplicate, a retry or a task re-queued after its worker died is harmless.

The services schedule these tasks and the tasks run services: this module imports the services
inside the task bodies, so that at import time it sits below them.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone
from django_tasks import task
from django_tasks_db import DatabaseBackend
from django_tasks_db.compat import normalize_json

from .tracing import REQUEST_ID


class Backend(DatabaseBackend):
    """django-tasks-db's backend (``TASKS`` names it), which also keeps beside a task's
    arguments the id of the request (or socket) that queued it (``REQUEST_ID``): the worker
    serves the task under that id, so its log lines carry it (``run_worker``). Every task is
    queued through here, whichever service queues it. Defined before the tasks: each looks
    its backend up as it is made."""

    def _task_to_db_task(self, task, args, kwargs):
        from django_tasks_db.models import DBTaskResult

        stored = normalize_json({"args": args, "kwargs": kwargs})
        if request_id := REQUEST_ID.get():
            stored["request_id"] = request_id
        # As django-tasks-db's own, with the id beside the arguments (it reads only those two).
        return DBTaskResult.objects.create(
            id=self._get_id(),
            args_kwargs=stored,
            priority=task.priority,
            task_path=task.module_path,
            queue_name=task.queue_name,
            run_after=task.run_after,
            backend_name=self.alias,
        )


def request_id_of(row) -> str:
    """The id of the request that queued this task (a ``DBTaskResult``), or ""."""
    return (row.args_kwargs or {}).get("request_id", "")


@task()
def computer_move(match_id: int, version: int) -> bool:
    """The computer's move in ``match_id``, if the match is still at ``version``."""
    from . import metrics
    from .services.computer import play_turn

    played = play_turn(match_id, version=version)
    if played:
        metrics.moved("computer")
    return played


@task()
def clock_expire(match_id: int, due: str) -> bool:
    """The match's clock task, due at ``due``: end the match if the player to act ran out of
    time, else wait again for the turn running now."""
    from .services import match_expire

    return match_expire(match_id=match_id, due=datetime.fromisoformat(due))


@task()
def rematch_lapse(match_id: int, version: int) -> bool:
    """The rematch offer made at ``version`` lapses, if the match is still at that version."""
    from .services import rematch_lapse

    return rematch_lapse(match_id=match_id, version=version)


@task()
def rematch_left(match_id: int, version: int) -> bool:
    """The rematch offer made at ``version`` lapses if a player has left the match's page."""
    from .services import rematch_lapse

    return rematch_lapse(match_id=match_id, version=version, if_left=True)


@task()
def challenge_lapse(challenge_id: int) -> bool:
    """The challenge lapses if it is still unanswered."""
    from .services import challenge_lapse

    return challenge_lapse(challenge_id=challenge_id)


@task()
def turn_mail(match_id: int, version: int) -> bool:
    """Tell the player to act in a correspondence match, by push (services.push) and mail
    (services.turn_mail), if the match is still at ``version`` and the turn has just passed
    to them."""
    from .services.push import push_notify
    from .services.turn_mail import turn_mail_send

    # The push first: a player it told is not mailed the same turn (unless they asked).
    push_notify(kind="turn", subject=match_id, version=version)
    return turn_mail_send(match_id=match_id, version=version)


@task()
def push_notify(kind: str, subject: int, version: int | None = None) -> int:
    """Notify by Web Push whom ``kind`` concerns about ``subject`` (services.push), if it
    still holds."""
    from .services.push import push_notify

    return push_notify(kind=kind, subject=subject, version=version)


@task()
def push_deliver(subscription_id: int, data: str, attempt: int) -> bool:
    """A notification's delivery to one device, tried again after a failure (services.push)."""
    from .services.push import push_deliver

    return push_deliver(subscription_id=subscription_id, data=data, attempt=attempt)


@task()
def arena_start(arena_id: int) -> bool:
    """The arena's start time: it runs, and its pairing begins."""
    from .services.arenas import arena_start

    return arena_start(arena_id=arena_id)


@task()
def arena_pair(arena_id: int, due: str) -> int:
    """A round of the arena's pairing, if it is the arena's waiting one (``Arena.pair_due``)."""
    from .services.arenas import arena_pair

    return arena_pair(arena_id=arena_id, due=datetime.fromisoformat(due))


@task()
def arena_end(arena_id: int) -> bool:
    """The arena's end time: no more pairing (matches in play finish and count)."""
    from .services.arenas import arena_end

    return arena_end(arena_id=arena_id)


@task()
def arena_mail(entry_id: int) -> bool:
    """Mail a player who asked that the arena they joined has started."""
    from .services.turn_mail import arena_mail_send

    return arena_mail_send(entry_id=entry_id)


@task()
def new_device_mail(user_id: int, user_agent: str, at: str) -> bool:
    """Tell a player by mail of a log-in from a device they had not used (services
    .account_sessions), if they have a confirmed address and want these mails."""
    from .services.account_sessions import new_device_mail_send

    return new_device_mail_send(user_id=user_id, user_agent=user_agent, at=at)


@task()
def data_export(user_id: int, requested_at: str) -> bool:
    """Make the file of a player's data they asked for at ``requested_at``
    (services.leaving)."""
    from .services.leaving import data_export_build

    return data_export_build(user_id=user_id, requested_at=datetime.fromisoformat(requested_at))


@task(queue_name="analysis")  # its own workers: seconds of search must not delay a move
def match_analyse(match_id: int) -> bool:
    """The analysis of a finished match (seconds of search: never in a web process)."""
    from . import metrics
    from .services import match_analyse

    with metrics.analysis_timed():
        return match_analyse(match_id=match_id)


def schedule_computer_move(match_id: int, version: int, turn_starts=None) -> None:
    """Queue the computer's move a beat after the change that leaves it to act, or when its
    turn starts (``turn_starts``: after a hand's end, once the next hand is on the table: the
    hand's end is the beat, so the player's first control of the hand comes within the
    table's pace), in the caller's transaction: the task exists exactly when that change was
    committed."""
    beat = timezone.now() + timezone.timedelta(seconds=settings.COMPUTER_MOVE_DELAY)
    due = max(beat, turn_starts or beat)
    computer_move.using(run_after=due).enqueue(match_id, version)


def schedule_clock_expire(match_id: int, due: datetime) -> None:
    """Queue the match's clock task at ``due`` (in the caller's transaction)."""
    clock_expire.using(run_after=due).enqueue(match_id, due.isoformat())


def schedule_rematch_lapse(match_id: int, version: int, due: datetime) -> None:
    rematch_lapse.using(run_after=due).enqueue(match_id, version)


def schedule_rematch_left(match_id: int, version: int, due: datetime) -> None:
    rematch_left.using(run_after=due).enqueue(match_id, version)


def schedule_new_device_mail(user_id: int, user_agent: str, at: datetime) -> None:
    """Queue the mail of a log-in from a new device (in the log-in's transaction)."""
    new_device_mail.enqueue(user_id, user_agent, at.isoformat())


def schedule_data_export(user_id: int, requested_at: datetime) -> None:
    """Queue the making of a player's data file (in the request's transaction)."""
    data_export.enqueue(user_id, requested_at.isoformat())


def schedule_challenge_lapse(challenge_id: int, due: datetime) -> None:
    challenge_lapse.using(run_after=due).enqueue(challenge_id)


def schedule_turn_mail(match_id: int, version: int) -> None:
    """Queue the turn's mail of a correspondence match (in the caller's transaction), due a
    little later: a player who has just joined from the lobby, or followed a link, is on the
    match's page by then, and the mail (which looks for them there) is not sent."""
    due = timezone.now() + timezone.timedelta(seconds=settings.TURN_MAIL_DELAY_SECONDS)
    turn_mail.using(run_after=due).enqueue(match_id, version)


def schedule_push(kind: str, subject: int, version: int | None = None) -> None:
    """Queue a push notification (services.push; in the caller's transaction), if the site
    has its VAPID keys."""
    if settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY:
        push_notify.enqueue(kind, subject, version)


def schedule_push_deliver(subscription_id: int, data: str, attempt: int, due: datetime) -> None:
    push_deliver.using(run_after=due).enqueue(subscription_id, data, attempt)


def schedule_arena_start(arena_id: int, due: datetime) -> None:
    arena_start.using(run_after=due).enqueue(arena_id)


def schedule_arena_pair(arena_id: int, due: datetime) -> None:
    arena_pair.using(run_after=due).enqueue(arena_id, due.isoformat())


def schedule_arena_end(arena_id: int, due: datetime) -> None:
    arena_end.using(run_after=due).enqueue(arena_id)


def schedule_arena_mail(entry_id: int) -> None:
    arena_mail.enqueue(entry_id)


def schedule_analysis(match_id: int) -> None:
    """Queue the analysis of a match that just ended (in the transaction that ends it)."""
    match_analyse.enqueue(match_id)
