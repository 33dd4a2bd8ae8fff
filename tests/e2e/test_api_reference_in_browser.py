"""The API's reference in a browser: reached from the API's own address, and its first load
(the page, its styles, scripts, fonts and icons, nothing cached) within the budget a match
page has, as the browser received it (headers and compressed bodies) from a server as
production runs one (collected static files, compressed by WhiteNoise)."""

from __future__ import annotations

import pytest

from tests.support.browser import BUDGET, collected_server

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_s_address_leads_a_browser_to_its_reference(live_server_url, new_page):
    page = new_page()
    for path in ["/api/", "/api/v1/"]:
        page.goto(live_server_url + path)
        page.wait_for_url("**/api/v1/docs")
        assert page.locator("h1").inner_text() == "API reference"


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), collected_server() as server:
        yield server


def test_the_reference_s_first_load_is_within_the_budget(server, new_page):
    live_server_url = server.url
    page = new_page(width=1280, height=800)
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.goto(live_server_url + "/api/v1/docs", wait_until="networkidle")
    assert page.locator("#shape-Error").is_visible()
    sizes = {request.url: request.sizes() for request in finished}
    total = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes.values())
    document = sizes[live_server_url + "/api/v1/docs"]
    print(f"\nthe reference's first load: {len(sizes)} responses, {total} bytes")
    for url, s in sorted(sizes.items(), key=lambda item: -item[1]["responseBodySize"]):
        print(f"  {s['responseBodySize']:>7} {url.removeprefix(live_server_url)}")
    assert document["responseBodySize"] < 40_000  # the page itself, compressed (was 0.9 MB)
    assert total < BUDGET
