# Reserved: filled by the change that needs it (kept empty so numbers do not collide).
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("claims", "0041_person_tax_id_indexes")]
    operations = []
