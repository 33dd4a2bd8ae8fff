import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0040_insights"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="puzzle",
            name="private",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="puzzleattempt",
            name="rated",
            field=models.BooleanField(default=True),
        ),
        migrations.CreateModel(
            name="PuzzleStreak",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("current", models.PositiveIntegerField(default=0)),
                ("best", models.PositiveIntegerField(default=0)),
                ("floor_rating", models.IntegerField(blank=True, null=True)),
                ("floor_id", models.PositiveIntegerField(blank=True, null=True)),
                ("runs", models.PositiveIntegerField(default=0)),
                (
                    "missed",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.puzzle",
                    ),
                ),
                (
                    "puzzle",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.puzzle",
                    ),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="FlaggedDecision",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("index", models.PositiveIntegerField()),
                (
                    "theme",
                    models.CharField(
                        choices=[
                            ("ordering_up", "Ordering up"),
                            ("bidding", "Bidding"),
                            ("discard", "The dealer's discard"),
                            ("march_defence", "Defending against a march"),
                            ("leading_trump", "Leading trump"),
                            ("bowers", "The bowers"),
                            ("last_tricks", "The last tricks"),
                            ("play", "Card play"),
                        ],
                        max_length=16,
                    ),
                ),
                ("loss", models.FloatField()),
                ("flag", models.CharField(max_length=12)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.match",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["user", "theme"], name="games_flagg_user_id_85c2d0_idx")
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("match", "index"), name="one_flag_per_move")
                ],
            },
        ),
    ]
