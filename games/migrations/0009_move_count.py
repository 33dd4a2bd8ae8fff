from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_moves(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Move = apps.get_model("games", "Move")
    counts = (
        Move.objects.filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Match.objects.update(move_count=Coalesce(Subquery(counts), 0))


class Migration(migrations.Migration):
    """The move sequence number gets a counter of its own (it was the match's version)."""

    dependencies = [("games", "0008_worker_beats")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="move_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_moves, migrations.RunPython.noop),
    ]
