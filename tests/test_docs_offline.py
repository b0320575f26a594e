"""The documentation site read from files (``file://``), as it is meant to be offline:
every page link names a file that is there, and the search works without a server (its
index is also a script, and its worker runs through a shim the site carries)."""

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit


ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"""<a\b[^>]*\bhref=["']([^"']+)["']""", re.IGNORECASE)
SCRIPT = re.compile(r"""<script\b[^>]*\bsrc=["']([^"']+)["']""", re.IGNORECASE)


def local_targets(page: Path, pattern: re.Pattern) -> list[tuple[str, Path]]:
    """The page's links or scripts within the site, as (as written, file it names)."""
    targets = []
    for href in pattern.findall(page.read_text(encoding="utf-8")):
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not parts.path:
            continue  # another site, mail, or an anchor on this page
        targets.append((href, (page.parent / unquote(parts.path)).resolve()))
    return targets


def test_the_search_index_is_also_a_script_a_page_opened_from_files_can_load(site):
    script = (site / "search" / "search_index.js").read_text(encoding="utf-8")
    assert script.startswith("var __index = ")
    index = json.loads(script.removeprefix("var __index = "))
    assert index == json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert any(entry["location"].startswith("how-to/verify-a-value.html") for entry in index["docs"])


def test_every_link_between_pages_names_an_html_file_that_is_there(site):
    # 404.html is a server's page, linked from the site's root, so it links from there.
    for page in set(site.rglob("*.html")) - {site / "404.html"}:
        for href, target in local_targets(page, LINK):
            assert target.is_file(), f"{page.relative_to(site)} links {href}, which is no file of the site"


def test_the_search_worker_shim_is_the_sites_own_and_loads_before_the_search(site):
    for page in (site / "index.html", site / "how-to" / "long-solves.html"):
        scripts = [target for _, target in local_targets(page, SCRIPT)]
        shims = [index for index, target in enumerate(scripts) if target.name == "shim.js"]
        bundles = [index for index, target in enumerate(scripts) if target.name.startswith("bundle.")]
        assert shims and bundles and shims[0] < bundles[0], page
        assert all(target.is_file() for target in scripts), page
        assert "unpkg.com" not in page.read_text(encoding="utf-8")
