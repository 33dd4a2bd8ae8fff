from django.conf import settings
from django.db import migrations


def skeletons_again(apps, schema_editor):
    # Names' skeletons now read each Latin small capital as its letter (ᴀlice is alice): every
    # stored one is written again, so that a new name is compared with the taken ones alike.
    from games.i18n.names import skeleton

    NameSkeleton = apps.get_model("games", "NameSkeleton")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    names = dict(User.objects.values_list("pk", "username"))
    rows = list(NameSkeleton.objects.all())
    for row in rows:
        row.skeleton = skeleton(names.get(row.user_id, ""))
    NameSkeleton.objects.bulk_update(rows, ["skeleton"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("games", "0026_arenas"),
    ]

    operations = [migrations.RunPython(skeletons_again, migrations.RunPython.noop)]
