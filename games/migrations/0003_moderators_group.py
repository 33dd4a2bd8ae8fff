"""The "Moderators" group, with exactly the permissions the moderators' desk needs.

They can view matches, moves, ratings, reports and the audit log, and moderate (void,
adjudicate, abort, handle reports, suspend and reinstate players) through the admin actions,
which call the services. They cannot change moves, seeds or ratings: no change permission on
those exists for them. Make a moderator: staff status plus membership of this group.
"""

from django.db import migrations

PERMISSIONS = {
    "games": [
        "view_match", "moderate_match", "view_move", "view_ratingchange", "view_playerrating",
        "view_report", "suspend_player", "view_moderationaction",
    ],
    "auth": ["view_user"],
}  # fmt: skip


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally made after all migrations; make them now for this group.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    wanted = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codenames in PERMISSIONS.items()
        for codename in codenames
    ]
    group.permissions.set(wanted)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_moderation"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
