"""The repository stands on its own: every Markdown link and every link on a page leads to
something inside it (a file that exists, a heading that exists, a page of the site)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.links import ROOT, slug

SKIPPED = {".venv", ".git", "artifacts", "staticfiles", "node_modules"}

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"`+[^`\n]*`+")
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
AUTOLINK = re.compile(r"<([a-z][a-z0-9+.-]*:[^>\s]*)>|(?<![(\w])(https?://[^\s)>\]]+)", re.I)


def markdown_files(root: Path = ROOT) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*.md")
        if not SKIPPED.intersection(path.relative_to(root).parts)
        and not any(part.startswith(".") for part in path.relative_to(root).parts[:-1])
    )


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text())
    return {slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def links(path: Path) -> list[str]:
    """Every link target of a Markdown file, outside code blocks and code spans."""
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text()))
    found = INLINE_LINK.findall(text) + REFERENCE.findall(text)
    found += [a or b for a, b in AUTOLINK.findall(text)]
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """The links of ``path`` that leave the repository or lead nowhere, each with why."""
    broken = []
    for target in links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:|//", target, re.I):
            broken.append(f"{target}: outside the repository")
            continue
        name, _hash, fragment = target.partition("#")
        place = (path.parent / name).resolve() if name else path
        if not place.is_relative_to(root.resolve()):
            broken.append(f"{target}: outside the repository")
        elif not place.exists():
            broken.append(f"{target}: no such file")
        elif fragment and place.suffix == ".md" and fragment not in anchors(place):
            broken.append(f"{target}: no such heading in {place.name}")
    return broken


def test_every_markdown_link_leads_inside_the_repository():
    files = markdown_files()
    assert {"README.md", "CONTRIBUTING.md", "docs/RULES.md"} <= {
        str(path.relative_to(ROOT)) for path in files
    }
    broken = {str(path.relative_to(ROOT)): broken_links(path) for path in files}
    assert {name: found for name, found in broken.items() if found} == {}


def test_the_readme_links_the_rule_book_and_the_contributors_page():
    targets = links(ROOT / "README.md")
    assert "docs/RULES.md" in targets and "CONTRIBUTING.md" in targets


def test_the_walk_notices_dead_outside_and_misspelt_links(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "BOOK.md").write_text("# Book\n\n## Card order\n")
    page = tmp_path / "README.md"
    page.write_text(
        "[ok](docs/BOOK.md#card-order) [gone](docs/GONE.md) [up](../shared/RULES.md)\n"
        "[web](https://example.com/) <https://example.org/> [bad anchor](docs/BOOK.md#deal)\n"
        "[ref]: docs/BOOK.md\n[far]: ../elsewhere.md\n"
        "```\n[in a code block](nowhere.md)\n```\n`[in a span](nowhere.md)`\n"
    )
    assert set(markdown_files(tmp_path)) == {page, tmp_path / "docs" / "BOOK.md"}
    assert broken_links(page, tmp_path) == [
        "docs/GONE.md: no such file",
        "../shared/RULES.md: outside the repository",
        "https://example.com/: outside the repository",
        "docs/BOOK.md#deal: no such heading in BOOK.md",
        "../elsewhere.md: outside the repository",
        "https://example.org/: outside the repository",
    ]


def test_code_cites_the_rule_book_by_its_path_and_its_sections():
    """Docstrings cite ``docs/RULES.md, "Section"``: the file is the repository's, and the
    section exists."""
    sections = anchors(ROOT / "docs" / "RULES.md")
    cited = 0
    for path in [*ROOT.glob("games/**/*.py"), *ROOT.glob("templates/**/*.html")]:
        text = path.read_text()
        for match in re.finditer(r"(\S*)RULES\.md", text):
            assert match.group(1).endswith("docs/"), f"{path.name} cites {match.group(0)}"
        for section in re.findall(r'docs/RULES\.md, "([^"]+)"', text):
            cited += 1
            assert slug(section) in sections, f"{path.name} cites a missing section {section!r}"
    assert cited >= 3


PAGES = ["/", "/rules/", "/help/", "/accounts/login/", "/accounts/signup/"]
PLAYERS_PAGES = ["/play/", "/leaderboard/", "/history/", "/users/alice/"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES + PLAYERS_PAGES)
def test_the_pages_link_only_to_the_site(client, alice, url):
    if url in PLAYERS_PAGES:
        client.force_login(alice)
    response = client.get(url)
    assert response.status_code == 200
    targets = re.findall(r'(?<![\w-])(?:href|src|action)="([^"]*)"', response.content.decode())
    assert targets, f"{url} has no links"
    outside = [t for t in targets if not re.match(r"(/(?!/)|#|\?)", t)]
    assert outside == []
