"""Requests whose body Django cannot parse: a form not in UTF-8, a multipart post without a
boundary, to a page and to no page. Each is answered 4xx in words, and a server that got
100 of each still answers its health check with its database connections given back.

Before the site had its own error pages, Django's (they run the CSRF check, which reads the
body) failed as the request had: 500, and a pooled database connection never returned, so that
about 21 such posts took a PostgreSQL server's pool and the server with it."""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from http.cookiejar import CookieJar

import pytest
from django.db import connection
from django.test import Client

from tests.support.servers import Server, server_env

LATIN_1_FORM = "application/x-www-form-urlencoded; charset=iso-8859-1"
NO_BOUNDARY = "multipart/form-data"
CRAFTED = [
    ("a form in Latin-1 to a page", "/learn/", LATIN_1_FORM, "action=pass&x=caf\xe9"),
    ("a form in Latin-1 to the log-in", "/accounts/login/", LATIN_1_FORM, "username=\xe9"),
    ("a multipart post without a boundary to a page", "/learn/", NO_BOUNDARY, "x"),
    ("a multipart post without a boundary to no page", "/no/such/page", NO_BOUNDARY, "x"),
    ("a form in Latin-1 to no page", "/no/such/page", LATIN_1_FORM, "a=\xe9"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("what", "path", "kind", "body"), CRAFTED, ids=[c[0] for c in CRAFTED])
def test_a_body_that_cannot_be_read_is_answered_in_words(what, path, kind, body):
    client = Client(enforce_csrf_checks=True)  # the check reads the body: as in production
    client.get("/learn/")
    token = client.cookies["csrftoken"].value
    response = client.post(
        path,
        data=body,
        content_type=kind,
        headers={"X-CSRFToken": token},  # sent in its charset
    )
    # To a page, the body is read (by the CSRF check) and cannot be: 400. To no page, nothing
    # reads it: 404. Each in the site's words, in its frame.
    expected = {"/no/such/page": (404, "There is nothing at this address")}
    status, words = expected.get(path, (400, "That request could not be read"))
    page = response.content.decode()
    assert response.status_code == status and words in page and "<nav" in page, what


@pytest.mark.django_db(transaction=True)
def test_a_server_flooded_with_them_keeps_its_connections_and_answers():
    server = Server(server_env()).start()
    try:
        jar = CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        for _ in range(5):  # the pool as it serves: its size grows with the first requests
            opener.open(server.url + "/learn/", timeout=10).read()
            opener.open(server.url + "/healthz", timeout=10).read()
        token = next(c.value for c in jar if c.name == "csrftoken")
        before = server_connections()
        statuses: dict[int, int] = {}
        for _what, path, kind, body in CRAFTED:
            for _ in range(100):
                request = urllib.request.Request(
                    server.url + path,
                    data=body.encode("latin-1"),
                    headers={"Content-Type": kind, "X-CSRFToken": token},
                )
                try:
                    status = opener.open(request, timeout=10).status
                except urllib.error.HTTPError as refused:
                    status = refused.code
                    refused.read()
                statuses[status] = statuses.get(status, 0) + 1
                assert status in (400, 403, 404), (path, kind, statuses)  # stop at the first
        with urllib.request.urlopen(server.url + "/healthz", timeout=5) as response:
            assert response.status == 200
        if before is not None:  # PostgreSQL: the pool keeps about its size (a leak of one
            # connection a request, 500 of them, would take it to its most, 20)
            assert server_connections() <= max(before, 2) + 2
    finally:
        server.stop()


def server_connections() -> int | None:
    """The database connections held by other processes (the server's pool), on PostgreSQL."""
    if connection.vendor != "postgresql" or not os.environ.get("DATABASE_URL"):
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
        return cursor.fetchone()[0]
