import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0039_retention"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="playersettings",
            name="insights_public",
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name="InsightDecision",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("finished_at", models.DateTimeField()),
                ("rated", models.BooleanField()),
                ("computer", models.BooleanField()),
                ("deck", models.PositiveSmallIntegerField()),
                ("target", models.PositiveSmallIntegerField()),
                ("index", models.PositiveIntegerField()),
                ("kind", models.CharField(max_length=8)),
                ("seconds", models.FloatField(null=True)),
                ("loss", models.FloatField(null=True)),
                ("match", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.match")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "indexes": [models.Index(fields=["player", "finished_at"], name="insight_choice_player")],
                "constraints": [models.UniqueConstraint(fields=("match", "index"), name="one_insight_decision")],
            },
        ),
        migrations.CreateModel(
            name="InsightHand",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("finished_at", models.DateTimeField()),
                ("rated", models.BooleanField()),
                ("computer", models.BooleanField()),
                ("deck", models.PositiveSmallIntegerField()),
                ("target", models.PositiveSmallIntegerField()),
                ("hand", models.PositiveSmallIntegerField()),
                ("dealer", models.BooleanField()),
                ("maker", models.BooleanField()),
                ("bid", models.CharField(blank=True, max_length=8)),
                ("trumps", models.PositiveSmallIntegerField(null=True)),
                ("bowers", models.PositiveSmallIntegerField(null=True)),
                ("scored", models.PositiveSmallIntegerField()),
                ("conceded", models.PositiveSmallIntegerField()),
                ("outcome", models.CharField(max_length=8)),
                ("match", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.match")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "indexes": [models.Index(fields=["player", "finished_at"], name="insight_hand_player")],
                "constraints": [models.UniqueConstraint(fields=("match", "player", "hand"), name="one_insight_hand")],
            },
        ),
    ]
