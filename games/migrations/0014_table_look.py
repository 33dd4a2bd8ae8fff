from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="playersettings",
            name="theme",
            field=models.CharField(
                choices=[("auto", "As the device"), ("light", "Light"), ("dark", "Dark")],
                default="auto",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="four_colour",
            field=models.BooleanField(default=False),
        ),
    ]
