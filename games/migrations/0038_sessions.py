from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0037_second_factors"),
    ]

    operations = []
