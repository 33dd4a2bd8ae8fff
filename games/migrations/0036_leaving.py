from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0035_mail_addresses"),
    ]

    operations = []
