"""Running the task queue inside a test: the real worker (``manage.py run_worker --batch``),
in this process and on the test's database. Like any worker it closes its database connection
between tasks: tests that use it need ``django_db(transaction=True)``."""

from __future__ import annotations

from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult


def run_due_tasks(*, as_if_seconds_passed: float = 0) -> None:
    """Run every task that is due, and those due within ``as_if_seconds_passed`` (the caller
    pretends that much time passed, as it does for the match's clock), until none is left."""
    if as_if_seconds_passed:
        soon = timezone.now() + timedelta(seconds=as_if_seconds_passed)
        DBTaskResult.objects.filter(status=TaskResultStatus.READY, run_after__lte=soon).update(
            run_after=timezone.now()
        )
    call_command(
        "run_worker", "--batch", "--no-startup-delay", "--interval=0", "--queue-name=*", verbosity=0
    )


def queued(task_name: str) -> list[tuple]:
    """The arguments of the queued (not yet run) tasks of that name, oldest first."""
    rows = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path__endswith=f".{task_name}"
    ).order_by("enqueued_at")
    return [tuple(row.args_kwargs["args"]) for row in rows]


def age(match, seconds: float):
    """Pretend the player to act got the turn ``seconds`` ago: the match's turn started that
    much earlier, and its queued tasks fall due that much earlier too."""
    from games.models import Match

    earlier = timedelta(seconds=seconds)
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - earlier)
    for task in DBTaskResult.objects.filter(status=TaskResultStatus.READY):
        if task.args_kwargs["args"][:1] == [match.pk]:
            task.run_after -= earlier
            task.save(update_fields=["run_after"])
    return Match.objects.select_related("player0", "player1").get(pk=match.pk)
