"""The moderators' desk gets the chat: read every line of a match's chat (removed ones too)
and the time outs. Removing a line and timing a player out are the desk's actions on matches
(``moderate_match``, which 0003 gave the group): chat is said at a match."""

from django.db import migrations

PERMISSIONS = {"games": ["view_chatline", "view_chattimeout"]}


def moderators_read_chat(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally made after all migrations; make them now for this group.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="games", codename__in=PERMISSIONS["games"]
        )
    )


def moderators_read_chat_no_more(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="Moderators").first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(
                content_type__app_label="games", codename__in=PERMISSIONS["games"]
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0031_chat"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(moderators_read_chat, moderators_read_chat_no_more)]
