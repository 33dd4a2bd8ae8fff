from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0034_account_log"),
    ]

    operations = []
