from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_partitioned_events"),
    ]

    operations = [
        migrations.AlterField(
            model_name="matchevent",
            name="type",
            field=models.CharField(
                choices=[
                    ("match_created", "Match Created"),
                    ("deal_started", "Deal Started"),
                    ("lead_offered", "Lead Offered"),
                    ("lead_sold", "Lead Sold"),
                    ("lead_kept", "Lead Kept"),
                    ("card_played", "Card Played"),
                    ("hands_revealed", "Hands Revealed"),
                    ("match_abandoned", "Match Abandoned"),
                    ("ruling_recorded", "Ruling Recorded"),
                    ("result_confirmed", "Result Confirmed"),
                    ("match_withdrawn", "Match Withdrawn"),
                    ("match_reinstated", "Match Reinstated"),
                    ("deal_tallied", "Deal Tallied"),
                    ("deal_corrected", "Deal Corrected"),
                ],
                max_length=20,
            ),
        ),
    ]
