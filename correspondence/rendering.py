"""A letter as the person gets it: the HTML e-mail (the channel's brand around the
letter), its plain-text twin, and the letter as a PDF.

Templates live in correspondence/templates/correspondence/letters/<letter>.html and
use the small HTML the PDF can draw (h2, h3, p, ul/li, b, i, br, table). The channel's
own paragraphs are plain text put in as variables: escaped, never run as templates.
"""

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from django.template.loader import render_to_string

from claims.models import Channel
from correspondence.models import ChannelLetters, LetterText
from whitelabel.branding import brand_of
from whitelabel.models import HostedPages

# The letter inside the stored e-mail: the PDF, the hosted pages and the API's
# download draw exactly this part.
LETTER_START, LETTER_END = "<!--carta-->", "<!--/carta-->"


@dataclass(frozen=True)
class Rendered:
    subject: str
    html: str
    text: str


def channel_words(letter_settings: ChannelLetters, letter: str) -> tuple[str, str]:
    """The channel's opening and closing paragraphs of ``letter`` (empty when none)."""
    if letter_settings._state.adding:  # the defaults, never saved: no words of its own
        return "", ""
    text = LetterText.objects.filter(settings=letter_settings, letter=letter).first()
    return (text.opening, text.closing) if text else ("", "")


def render(*, channel: Channel, letter: str, subject: str, context: dict,
           words: tuple[str, str] = ("", "")) -> Rendered:
    """``channel`` with its ``hosted_pages`` selected (the brand); ``words``: its
    paragraphs (``channel_words``)."""
    brand = brand_of(channel)
    opening, closing = words
    letter_html = render_to_string(f"correspondence/letters/{letter}.html", {
        **context, "brand": brand, "opening": opening, "closing": closing,
    }).strip()
    page = render_to_string("correspondence/email.html", {
        "brand": brand, "subject": subject, "reply_to": _reply_to(channel),
        "letter": f"{LETTER_START}{letter_html}{LETTER_END}",
    })
    return Rendered(subject=subject, html=page, text=as_text(letter_html))


def _reply_to(channel: Channel) -> str:
    try:
        return channel.hosted_pages.reply_to
    except HostedPages.DoesNotExist:
        return ""


def letter_part(stored_html: str) -> str:
    """The letter inside a stored e-mail."""
    start = stored_html.find(LETTER_START)
    end = stored_html.find(LETTER_END)
    if start < 0 or end < 0:
        return stored_html
    return stored_html[start + len(LETTER_START):end]


def channel_for_letters(channel_id) -> Channel:
    """The channel with what its letters need, in one query: its brand (hosted pages)
    and its letter settings."""
    return Channel.objects.select_related("hosted_pages", "letters").get(pk=channel_id)


def settings_of(channel: Channel) -> ChannelLetters:
    """The channel's letter settings (the defaults when it has none); read from
    ``channel.letters`` when it was selected with the channel."""
    try:
        return channel.letters
    except ChannelLetters.DoesNotExist:
        return ChannelLetters(channel=channel)


class _TextWriter(HTMLParser):
    """Plain text from the letter's small HTML: blocks on their own lines, list items
    with a dash, links with their address."""

    BLOCKS = {"p", "h1", "h2", "h3", "ul", "ol", "table", "tr", "div"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.href, self.link_text = "", ""

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCKS:
            self.parts.append("\n\n")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag == "br":
            self.parts.append("\n")
        elif tag == "td":
            self.parts.append(" ")
        elif tag == "a":
            self.href, self.link_text = dict(attrs).get("href", ""), ""

    def handle_endtag(self, tag):
        if tag == "a" and self.href:
            if self.link_text.strip() != self.href:  # a link that is its own text: once
                self.parts.append(f" ({self.href})")
            self.href = ""

    def handle_data(self, data):
        if self.href:
            self.link_text += data
        self.parts.append(re.sub(r"\s+", " ", data))


def as_text(letter_html: str) -> str:
    writer = _TextWriter()
    writer.feed(letter_html)
    text = "".join(writer.parts)
    lines = [line.strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"
