# Reserved: filled by the change that needs it (kept empty so numbers do not collide).
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("claims", "0042_reserved_for_move_consequences")]
    operations = []
