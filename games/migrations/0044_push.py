import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

KINDS = [
    ("turn", "your turn in a correspondence match"),
    ("live", "your turn in a live match while its tab is hidden"),
    ("challenge", "a challenge to you"),
    ("rematch", "a rematch offer"),
    ("arena", "an arena you joined starting"),
    ("follow", "a followed player's open match"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0043_fairplay"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="connection",
            name="hidden",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="turn_mail_with_push",
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name="PushSent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=KINDS, max_length=16)),
                ("subject", models.BigIntegerField()),
                ("mark", models.IntegerField(default=0)),
                ("sent_at", models.DateTimeField(auto_now_add=True)),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "indexes": [models.Index(fields=["sent_at"], name="games_pushs_sent_at_81748d_idx")],
                "constraints": [models.UniqueConstraint(fields=("user", "kind", "subject", "mark"), name="one_push_until_acted")],
            },
        ),
        migrations.CreateModel(
            name="PushSubscription",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("endpoint", models.URLField(max_length=1000, unique=True)),
                ("p256dh", models.CharField(max_length=200)),
                ("auth", models.CharField(max_length=64)),
                ("device", models.CharField(blank=True, max_length=120)),
                ("kinds", models.CharField(default="turn,live,challenge,rematch,arena,follow", max_length=120)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("last_sent_at", models.DateTimeField(blank=True, null=True)),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "indexes": [models.Index(fields=["user", "created_at"], name="games_pushs_user_id_dbd403_idx")],
            },
        ),
    ]  # fmt: skip
