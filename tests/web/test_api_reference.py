"""The API's reference page (/api/v1/docs) and its front door (/api/, /api/v1/): a browser
is led to the reference, a program told in JSON where things are; the reference shows each
shape's fields once, and is sent compressed."""

from __future__ import annotations

import gzip

import pytest
from django.test import Client

from games.api.views import api

pytestmark = pytest.mark.django_db

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"


def reference(**headers) -> str:
    response = Client().get("/api/v1/docs", headers=headers)
    assert response.status_code == 200
    return response


def test_a_browser_at_the_api_s_address_is_led_to_its_reference():
    for path in ["/api/", "/api/v1/"]:
        response = Client().get(path, headers={"accept": BROWSER})
        assert response.status_code == 302 and response["Location"] == "/api/v1/docs", path
        assert "accept" in response["Vary"].lower()
        page = Client().get(path, headers={"accept": BROWSER}, follow=True)
        assert b"<h1" in page.content and b"API reference" in page.content


def test_a_program_at_the_api_s_address_is_told_where_the_reference_schema_and_streams_are():
    schema = api.get_openapi_schema()
    for path in ["/api/", "/api/v1/"]:
        for accept in ["application/json", "*/*", None]:  # curl sends */*; some send nothing
            client = Client()
            response = client.get(path, headers={"accept": accept} if accept else {})
            assert response.status_code == 200, (path, accept)
            assert response["Content-Type"] == "application/json" and len(response.content) < 2000
            index = response.json()
            assert index["reference"] == "http://testserver/api/v1/docs"
            assert index["schema"] == "http://testserver/api/v1/openapi.json"
            assert index["streams"] == [
                "http://testserver/api/v1/stream/account",
                "http://testserver/api/v1/stream/matches/{match_id}",
                "http://testserver/api/v1/stream/arenas/{arena_id}",
            ]
            sockets = [f"ws://testserver{s['path']}" for s in schema["x-websockets"]]
            assert index["websockets"] == sockets and "ws://testserver/api/v1/ws/account" in sockets
            assert client.get(index["reference"]).status_code == 200
            assert client.get(index["schema"]).json()["paths"]  # each address answers
    secure = Client().get("/api/v1/", headers={"accept": "application/json"}, secure=True).json()
    assert secure["reference"].startswith("https://") and secure["websockets"][0].startswith(
        "wss://"
    )


def test_the_reference_shows_each_shared_shape_once_and_links_to_it():
    html = reference().content.decode()
    # The refusal's shape (every code the API gives) was drawn in full at each of ~150
    # answers: 0.9 MB. Now once, under Shapes, and each refusal links to it.
    assert html.count('id="shape-Error"') == 1
    assert html.count("stable, one of the codes listed here") == 1
    assert html.count("scope_missing") == 1
    move = html.split("<code>POST /api/v1/matches/{match_id}/move</code></h2>")[1].split("<h2")[0]
    assert '<a href="#shape-Error"><code>Error</code></a>' in move
    assert '<a href="#shape-MatchAndView"><code>MatchAndView</code></a>' in move
    # A shape only one operation names is shown in place: the move's body.
    assert '<th scope="row"><code>action</code></th>' in move
    assert len(html.encode()) < 250_000


def test_the_preflight_is_shown_once_with_the_paths_it_answers():
    schema = api.get_openapi_schema()
    html = reference().content.decode()
    preflights = [path for path, methods in schema["paths"].items() if "options" in methods]
    assert preflights and html.count("CORS preflight") == 2  # its contents' line and its heading
    for path in preflights:
        assert f"<li><code>OPTIONS {path}</code></li>" in html
    shown = html.split("CORS preflight</span></h2>")[1].split("<h2")[0]
    assert "<dt><code>204</code></dt>" in shown and "<dt><code>403</code></dt>" in shown
    assert "Access-Control-Request-Method" in shown and "origin_not_allowed" in shown


def test_the_reference_is_sent_compressed_to_a_browser_that_takes_it():
    response = reference(accept_encoding="gzip, deflate, br")
    assert response["Content-Encoding"] == "gzip" and "accept-encoding" in response["Vary"].lower()
    assert len(response.content) < 40_000
    assert b"API reference" in gzip.decompress(response.content)
    assert "Content-Encoding" not in reference()  # and plain to one that does not
