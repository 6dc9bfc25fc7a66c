"""The access log's kinds: the privacy team's reading of the access report itself."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("privacy", "0003_forgetting")]

    operations = [
        migrations.AlterField(
            model_name="accessrecord",
            name="kind",
            field=models.CharField(
                choices=[("pagina", "Página do sinistro"), ("exportacao", "Exportação"),
                         ("documento", "Download de documento"),
                         ("carta", "Download de carta"), ("busca", "Busca"),
                         ("api", "Leitura pela API"), ("relatorio", "Relatório de acessos")],
                max_length=12, verbose_name="leitura"),
        ),
    ]
