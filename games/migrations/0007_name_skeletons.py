import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def skeletons_of_existing_names(apps, schema_editor):
    from games.i18n.names import skeleton

    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    NameSkeleton = apps.get_model("games", "NameSkeleton")
    NameSkeleton.objects.bulk_create(
        NameSkeleton(user_id=pk, skeleton=skeleton(name))
        for pk, name in User.objects.values_list("pk", "username").iterator()
    )


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("games", "0006_player_settings"),
    ]

    operations = [
        migrations.CreateModel(
            name="NameSkeleton",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("skeleton", models.CharField(db_index=True, max_length=600)),
            ],
        ),
        migrations.RunPython(skeletons_of_existing_names, migrations.RunPython.noop),
    ]
