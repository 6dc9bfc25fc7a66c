"""Every relative link and anchor in README.md and docs/*.md leads somewhere: the file
exists in the repository, and the heading an anchor names is in it (as GitHub spells
anchors). Links to the web are not fetched."""

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text: str) -> str:
    """The text without its code blocks and inline code, where brackets are not links."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading)
    text = unicodedata.normalize("NFC", text.strip().lower())
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for match in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", FENCE.sub("", path.read_text(encoding="utf-8")), re.M):
        slug = anchor(match.group(1))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(path: Path) -> list[str]:
    return [target for target in LINK.findall(prose(path.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z0-9+.-]*:", target)]  # http:, https:, mailto:


def broken(page: Path) -> list[str]:
    problems = []
    for target in links(page):
        file_part, _, fragment = target.partition("#")
        destination = (page.parent / file_part).resolve() if file_part else page
        if not destination.exists():
            problems.append(f"{target}: no such file")
        elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
            problems.append(f"{target}: no heading #{fragment}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(page):
    assert broken(page) == []


def test_the_checker_sees_a_broken_link_and_a_broken_anchor(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## Métricas (Prometheus)\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[a](other.md#métricas-prometheus) [b](missing.md) [c](other.md#nowhere)\n"
                    "```\n[d](ignored.md)\n```\n`[e](ignored.md)` [f](https://example.com)\n",
                    encoding="utf-8")

    assert broken(page) == ["missing.md: no such file", "other.md#nowhere: no heading #nowhere"]


def test_no_page_cites_a_path_outside_the_repository():
    outside = [f"{page.relative_to(ROOT)}: {line.strip()}" for page in PAGES
               for line in page.read_text(encoding="utf-8").splitlines() if "../shared" in line]
    assert outside == []
