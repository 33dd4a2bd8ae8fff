from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0041_training"),
    ]

    operations = [
        migrations.AddField(
            model_name="puzzle",
            name="retired_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
