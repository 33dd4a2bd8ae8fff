"""A chat per arena (issue 54): a line of chat is said at a match or in an arena, one of the two."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0032_chat_moderators"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="chatline",
            name="arena",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="chat_lines",
                to="games.arena",
            ),
        ),
        migrations.AlterField(
            model_name="chatline",
            name="match",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="chat_lines",
                to="games.match",
            ),
        ),
        migrations.AlterField(
            model_name="chatline",
            name="room",
            field=models.CharField(
                choices=[("players", "Players"), ("spectators", "Spectators"), ("arena", "Arena")],
                default="players",
                max_length=16,
            ),
        ),
        migrations.AddConstraint(
            model_name="chatline",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("arena__isnull", True), ("match__isnull", False)),
                    models.Q(("arena__isnull", False), ("match__isnull", True)),
                    _connector="OR",
                ),
                name="chat_line_at_a_match_or_an_arena",
            ),
        ),
    ]
