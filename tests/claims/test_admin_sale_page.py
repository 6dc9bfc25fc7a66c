"""The sale page analysts read: the insured person, the coverages in words, the claims."""

from tests.support.lifecycle import open_claim


def sale_page(client, sale) -> str:
    response = client.get(f"/admin/claims/sale/{sale.pk}/change/")
    assert response.status_code == 200
    return response.content.decode()


def test_coverages_read_in_words_with_no_raw_code(analyst, api, sale):
    open_claim(api, sale)

    page = sale_page(analyst, sale)

    for words in ["Morte", "Perda de renda", "Invalidez permanente", "R$ 50.000,00"]:
        assert words in page, words
    assert "cobertura/" not in page  # nor above each inline row (the coverage's __str__)


def test_the_insured_persons_phone_reads_as_people_write_it(analyst, sale):
    sale.insured_phone_area_code, sale.insured_phone_number = "11", "34567890"
    sale.save()

    page = sale_page(analyst, sale)

    assert "(11) 3456-7890" in page
    assert "34567890" not in page
