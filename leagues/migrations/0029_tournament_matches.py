from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0028_tournament'),
    ]

    operations = [
        migrations.AddField(
            model_name='meeting',
            name='matches_planned',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='matches planned'),
        ),
    ]
