"""Moderators see players' API tokens and may revoke one (audited as its own kind)."""

from django.db import migrations, models

PERMISSIONS = {"games": ["view_apitoken"]}


def grant(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    for app, codenames in PERMISSIONS.items():
        for codename in codenames:
            group.permissions.add(
                Permission.objects.get(content_type__app_label=app, codename=codename)
            )


def withdraw(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name="Moderators"):
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="games", codename="view_apitoken")
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0015_api")]

    operations = [
        migrations.AlterField(
            model_name="moderationaction",
            name="kind",
            field=models.CharField(
                choices=[
                    ("void", "Void match"),
                    ("adjudicate", "Adjudicate match"),
                    ("abort", "Abort match"),
                    ("suspend", "Suspend player"),
                    ("reinstate", "Reinstate player"),
                    ("resolve", "Resolve report"),
                    ("dismiss", "Dismiss report"),
                    ("revoke_token", "Revoke API token"),
                ],
                max_length=16,
            ),
        ),
        migrations.RunPython(grant, withdraw),
    ]
