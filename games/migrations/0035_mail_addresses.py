import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def addresses_unconfirmed(apps, schema_editor):
    """Every address typed before confirmation links existed was never confirmed: each waits,
    unconfirmed, for its player to ask for the link (the account page offers it), and is
    mailed nothing meanwhile."""
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    MailConfirmation = apps.get_model("games", "MailConfirmation")
    users = User.objects.exclude(email="")
    MailConfirmation.objects.bulk_create(
        MailConfirmation(user_id=pk, address=address)
        for pk, address in users.values_list("pk", "email").iterator()
    )
    users.update(email="")


def addresses_back(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    MailConfirmation = apps.get_model("games", "MailConfirmation")
    for row in MailConfirmation.objects.filter(confirmed_at__isnull=True).order_by("created_at"):
        User.objects.filter(pk=row.user_id, email="").update(email=row.address)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0034_account_log"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="playersettings",
            name="arena_mail",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="new_login_mail",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="turn_mail_each",
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name="MailConfirmation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("address", models.EmailField(max_length=254)),
                ("key_hash", models.CharField(blank=True, db_index=True, max_length=64)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                ("confirmed_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
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
                    models.Index(
                        fields=["user", "-created_at"], name="games_mailc_user_id_75e1b0_idx"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="MailSent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", models.CharField(max_length=16)),
                ("sent_at", models.DateTimeField(auto_now_add=True)),
                (
                    "match",
                    models.ForeignKey(
                        blank=True,
                        null=True,
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
                    models.Index(
                        fields=["user", "kind", "match", "-sent_at"],
                        name="games_mails_user_id_154dbc_idx",
                    )
                ],
            },
        ),
        migrations.RunPython(addresses_unconfirmed, addresses_back),
    ]
