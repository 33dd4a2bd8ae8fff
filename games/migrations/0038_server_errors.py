from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0037_sessions"),
    ]

    operations = [
        migrations.CreateModel(
            name="ServerError",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(db_index=True)),
                (
                    "kind",
                    models.CharField(
                        choices=[("request", "request"), ("socket", "socket"), ("task", "task")],
                        max_length=8,
                    ),
                ),
                ("status", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("method", models.CharField(blank=True, max_length=8)),
                ("path", models.CharField(blank=True, max_length=200)),
                ("request_id", models.CharField(blank=True, db_index=True, max_length=64)),
                ("exception", models.CharField(blank=True, max_length=200)),
                ("message", models.CharField(blank=True, max_length=200)),
                ("process", models.CharField(blank=True, max_length=100)),
            ],
            options={"ordering": ["-at"]},
        ),
        migrations.AddField(
            model_name="workerbeat",
            name="queues",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
    ]
