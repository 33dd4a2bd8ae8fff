# The retention sweep's lookups by time (games.services.retention): without these, each
# hourly sweep would scan the whole table of the account log, chat, mails sent, devices and
# challenges.
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0038_server_errors"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="accountevent",
            index=models.Index(fields=["created_at"], name="games_accou_created_9b0938_idx"),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(fields=["answered_at"], name="games_chall_answere_1dd31e_idx"),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(fields=["until"], name="games_chall_until_497feb_idx"),
        ),
        migrations.AddIndex(
            model_name="chatline",
            index=models.Index(fields=["created_at"], name="games_chatl_created_afb2cb_idx"),
        ),
        migrations.AddIndex(
            model_name="knowndevice",
            index=models.Index(fields=["last_seen"], name="games_known_last_se_9112c2_idx"),
        ),
        migrations.AddIndex(
            model_name="mailsent",
            index=models.Index(fields=["sent_at"], name="games_mails_sent_at_2a10b7_idx"),
        ),
    ]
