from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0036_leaving"),
    ]

    operations = []
