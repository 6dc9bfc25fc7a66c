# The requester of a death claim: who they are to the deceased, and their CPF.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('claims', '0035_copy_downloaded_timeline'),
    ]

    operations = [
        migrations.AddField(
            model_name='claim',
            name='requester_relationship',
            field=models.CharField(blank=True, choices=[('conjuge-ou-companheiro', 'Cônjuge ou companheiro(a)'), ('filho', 'Filho(a)'), ('pai-ou-mae', 'Pai ou mãe'), ('irmao', 'Irmão ou irmã'), ('outro-parente', 'Outro parente'), ('procurador', 'Procurador(a) ou representante'), ('outro', 'Outro')], db_default='', default='', max_length=30, verbose_name='parentesco do solicitante'),
        ),
        migrations.AddField(
            model_name='claim',
            name='requester_tax_id',
            field=models.CharField(blank=True, db_default='', default='', max_length=11, verbose_name='CPF do solicitante'),
        ),
    ]
