"""The Brazilian banks a payment can go to, by COMPE code (TED) and ISPB (PIX).

Reference data, loaded from ``claims/data/banks.csv`` by migration 0015 and refreshed
by ``manage.py refresh_banks FILE`` (docs/banks.md says where the data comes from)."""

from django.db import models


class Bank(models.Model):
    # The ISPB identifies a participant of the central bank's payment systems (STR, SPI).
    ispb = models.CharField("ISPB", max_length=8, primary_key=True)
    # The COMPE code (3 digits) of the participants that clear TEDs; blank for the others.
    compe = models.CharField("código COMPE", max_length=3, blank=True, db_index=True)
    name = models.CharField("nome", max_length=200)
    short_name = models.CharField("nome abreviado", max_length=100, blank=True)

    class Meta:
        verbose_name = "banco"
        verbose_name_plural = "bancos"
        ordering = ["compe", "name"]

    def __str__(self):
        return f"{self.compe} {self.name}" if self.compe else f"{self.ispb} {self.name}"
