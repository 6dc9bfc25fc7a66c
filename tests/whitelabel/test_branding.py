"""A channel's brand on the hosted pages: readable colours, a logo that is re-encoded
before it is kept, and the admin page where ops set them."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from claims import roles
from tests.support.lifecycle import logged_in, staff
from whitelabel.branding import InvalidLogo, contrast_ratio, reencoded_logo, text_color_on
from whitelabel.models import HostedPages


def superuser():
    user = staff("ops", None)
    user.is_superuser = True
    user.save()
    return user


def image_file(fmt="PNG", size=(1200, 400), name="logo.png") -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", size, (10, 60, 140)).save(out, format=fmt)
    return SimpleUploadedFile(name, out.getvalue())


@pytest.mark.parametrize("color", ["#FFD400", "#0B3D91", "#777777", "#FFFFFF", "#000000",
                                   "#E4002B", "#00A859"])
def test_text_on_the_brand_colour_always_reaches_wcag_aa(color):
    assert contrast_ratio(color, text_color_on(color)) >= 4.5


def test_a_logo_is_reencoded_as_a_small_png():
    png = reencoded_logo(image_file("JPEG", name="logo.jpg"))

    with Image.open(io.BytesIO(png)) as logo:
        assert logo.format == "PNG"
        assert logo.width <= 480 and logo.height <= 160


@pytest.mark.parametrize("content", [b"<svg onload=alert(1)></svg>", b"%PDF-1.7", b""])
def test_anything_but_an_image_is_refused(content):
    with pytest.raises(InvalidLogo):
        reencoded_logo(SimpleUploadedFile("logo.png", content))


def test_ops_set_name_colour_logo_and_link_lifetime_in_the_admin(channel, insured):
    admin = logged_in(superuser())

    response = admin.post("/admin/whitelabel/hostedpages/add/", {
        "channel": channel.pk, "display_name": "Banco Azul", "primary_color": "#0b3d91",
        "link_lifetime_hours": "48", "logo": image_file()})

    assert response.status_code == 302, response.content.decode()[:2000]
    pages = HostedPages.objects.get(channel=channel)
    assert pages.link_lifetime_hours == 48 and pages.logo_digest
    change = admin.get(f"/admin/whitelabel/hostedpages/{channel.pk}/change/").content.decode()
    assert "texto branco" in change and 'alt="Logotipo atual"' in change
    home = insured.get("/segurado/").content.decode()
    assert f'/segurado/logo.png?v={pages.logo_digest}" alt="Banco Azul"' in home
    logo = insured.get("/segurado/logo.png")
    assert logo["Content-Type"] == "image/png" and bytes(logo.content) == bytes(pages.logo_png)


def test_a_bad_logo_or_lifetime_is_an_error_on_the_admin_form(channel):
    admin = logged_in(superuser())

    response = admin.post("/admin/whitelabel/hostedpages/add/", {
        "channel": channel.pk, "primary_color": "#0b3d91", "link_lifetime_hours": "0",
        "logo": SimpleUploadedFile("logo.png", b"not an image")})

    page = response.content.decode()
    assert response.status_code == 200
    assert "O arquivo não é uma imagem válida." in page
    assert not HostedPages.objects.exists()


def test_analysts_do_not_reach_the_brand_settings(channel):
    analyst = logged_in(staff("ana", roles.ANALYST))

    assert analyst.get("/admin/whitelabel/hostedpages/").status_code == 403
    assert analyst.get("/admin/whitelabel/accesslink/").status_code == 403
