import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

USER = settings.AUTH_USER_MODEL
# The moderators' group handles the fair-play queue (flags, marks, appeals).
PERMISSIONS = {"games": ["handle_fair_play"]}


def _permissions(apps):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally made after all migrations; make them now for this group.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Permission = apps.get_model("auth", "Permission")
    return Permission.objects.filter(
        content_type__app_label="games", codename__in=PERMISSIONS["games"]
    )


def moderators_handle_fair_play(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(*_permissions(apps))


def moderators_handle_fair_play_no_more(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    group = Group.objects.filter(name="Moderators").first()
    if group is not None:
        group.permissions.remove(*_permissions(apps))


def user(related_name, on_delete=django.db.models.deletion.CASCADE, null=False):
    return models.ForeignKey(
        blank=null, null=null, on_delete=on_delete, related_name=related_name, to=USER
    )


def moderator(null=False):
    return user("+", django.db.models.deletion.PROTECT, null=null)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0042_analysis_truth"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.CreateModel(
            name="FairPlayFlag",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("player", user("fair_play_flags")),
                ("created_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("signals", models.JSONField(default=list)),
                ("matches", models.JSONField(default=list)),
                ("status", models.CharField(choices=[("open", "Open"), ("dismissed", "Dismissed"), ("warned", "Warned"), ("marked", "Marked")], default="open", max_length=16)),
                ("strength", models.FloatField(default=0.0)),
                ("resolved_by", moderator(null=True)),
                ("resolved_at", models.DateTimeField(blank=True, null=True)),
                ("reason", models.TextField(blank=True)),
            ],
            options={
                "ordering": ["-created_at"],
                "verbose_name": "fair-play flag",
                "permissions": [("handle_fair_play", "Can handle fair-play flags, marks and appeals")],
                "constraints": [models.UniqueConstraint(condition=models.Q(("status", "open")), fields=("player",), name="one_open_flag")],
            },
        ),
        migrations.CreateModel(
            name="FairPlayMark",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("player", user("fair_play_marks")),
                ("kind", models.CharField(choices=[("computer", "Computer-assisted play"), ("trader", "Rating trading")], max_length=16)),
                ("flag", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="marks", to="games.fairplayflag")),
                ("moderator", moderator()),
                ("reason", models.TextField()),
                ("refunded", models.JSONField(default=list)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("lifted_at", models.DateTimeField(blank=True, null=True)),
                ("lifted_by", moderator(null=True)),
            ],
            options={"ordering": ["-created_at"]},
        ),
        migrations.CreateModel(
            name="FairPlayWarning",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("player", user("fair_play_warnings")),
                ("flag", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="warnings", to="games.fairplayflag")),
                ("moderator", moderator()),
                ("reason", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("read_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={"ordering": ["-created_at"]},
        ),
        migrations.CreateModel(
            name="FairPlayAppeal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("mark", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="appeal", to="games.fairplaymark")),
                ("player", user("fair_play_appeals")),
                ("text", models.TextField(max_length=2000)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("answer", models.TextField(blank=True)),
                ("outcome", models.CharField(blank=True, choices=[("upheld", "Upheld: the mark stays"), ("granted", "Granted: the mark is lifted")], max_length=16)),
                ("answered_by", moderator(null=True)),
                ("answered_at", models.DateTimeField(blank=True, null=True)),
                ("answer_read_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={"ordering": ["-created_at"], "verbose_name": "fair-play appeal"},
        ),
        # A fair-play refund is a rating change of its own: one per player and match, as a
        # rated result is.
        migrations.RemoveConstraint(model_name="ratingchange", name="one_change_per_match"),
        migrations.AddField(
            model_name="ratingchange",
            name="refund",
            field=models.BooleanField(default=False),
        ),
        migrations.AddConstraint(
            model_name="ratingchange",
            constraint=models.UniqueConstraint(fields=("player", "match", "refund"), name="one_change_per_match"),
        ),
        # How a move came in (the page's socket or form, the API's post or socket, the
        # computer): the fair-play signals' (SIGNALS' request).
        migrations.AddField(
            model_name="move",
            name="way",
            field=models.CharField(blank=True, default="", max_length=12),
        ),
        migrations.AlterField(
            model_name="moderationaction",
            name="kind",
            field=models.CharField(choices=[("void", "Void match"), ("adjudicate", "Adjudicate match"), ("abort", "Abort match"), ("suspend", "Suspend player"), ("reinstate", "Reinstate player"), ("resolve", "Resolve report"), ("dismiss", "Dismiss report"), ("revoke_token", "Revoke API token"), ("accept_wording", "Accept a translation"), ("reject_wording", "Reject a translation"), ("remove_chat", "Remove a chat line"), ("chat_timeout", "Time a player out of chat"), ("fp_dismiss", "Dismiss a fair-play flag"), ("fp_warn", "Warn a player about fair play"), ("fp_mark", "Mark a player (fair play)"), ("fp_refund", "Refund a marked player's victims"), ("fp_uphold", "Uphold a fair-play appeal's mark"), ("fp_grant", "Grant a fair-play appeal")], max_length=16),
        ),
        migrations.RunPython(moderators_handle_fair_play, moderators_handle_fair_play_no_more),
    ]  # fmt: skip
