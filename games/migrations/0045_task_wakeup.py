"""A task queued, queued again or brought forward wakes the task workers as its transaction
commits: PostgreSQL's NOTIFY on the channel ``games_tasks`` (``run_worker`` listens on it, and
waits for it instead of looking for work every interval). The notice says the task's queue and
when it is due (seconds since the epoch; nothing: at once), so that a worker can wait for a task
due later without a query. Other databases have no such notice: their workers look, as before."""

from django.db import migrations

CHANNEL = "games_tasks"  # run_worker's WAKE_CHANNEL
TABLE = "django_tasks_database_dbtaskresult"
# django-tasks-db's run_after of a task due at once (its get_date_max): 9999-01-01.
DUE_AT_ONCE = "timestamptz '9999-01-01 00:00:00+00'"

CREATE = f"""
CREATE FUNCTION games_task_wakeup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(
        '{CHANNEL}',
        NEW.queue_name || ' ' || CASE WHEN NEW.run_after < {DUE_AT_ONCE} THEN
            extract(epoch FROM NEW.run_after)::text ELSE '' END
    );
    RETURN NULL;
END $$;
CREATE TRIGGER games_task_wakeup AFTER INSERT OR UPDATE OF status, run_after ON {TABLE}
    FOR EACH ROW WHEN (NEW.status = 'READY') EXECUTE FUNCTION games_task_wakeup();
"""
DROP = f"""
DROP TRIGGER IF EXISTS games_task_wakeup ON {TABLE};
DROP FUNCTION IF EXISTS games_task_wakeup();
"""


def on_postgresql(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0044_push"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP))]
