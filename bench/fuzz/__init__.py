"""Fuzz: thousands of malformed requests and websocket handshakes against the site served the
production way, with the bytes no library sends. A benchmark: it prints figures, it is never
part of the pass/fail suite.

The API's own fuzzing, from its published schema, is schemathesis' in the suite
(tests/api/test_schema_fuzz.py: every operation with data that fits its schema and data that
breaks it, and sequences of calls linked by their ids). What is left here is what no library
does: raw HTTP/1.1 bytes on the socket (a malformed Host, two Content-Lengths, a Latin-1 or
broken multipart form, JSON 100,000 levels deep, a lone surrogate as raw UTF-8 bytes, garbage
cookies and Accept-Language) to every route of the site and the admin, static files and unknown
paths, and to the API with those bytes only; and websocket handshakes with malformed origins
and hosts, followed by malformed frames.

The server is started as docs/OPERATING.md's "Production" section starts it (``uvicorn
euchre_site.asgi:served --factory --ws euchre_site.wsprotocol:WebSockets``, DEBUG off,
PostgreSQL, Redis, ``migrate`` and ``collectstatic`` first, one task worker beside it), with a
database of its own (``euchre_bench_fuzz``, dropped and created afresh) and Redis database 5
(``site``). The accounts, matches, a challenge, sessions and API tokens are made through the
services in a child process (``world``). Then ``--requests`` raw requests (``plan``,
``raw_http``, ``http_run``) and ``--handshakes`` websockets (``sockets``).

A request fails if it is answered 5xx, if the connection is reset or closed without a whole
response (dropped), or if nothing comes within ``--timeout`` seconds (a hang). A websocket
fails if its handshake gets a 5xx, hangs, or the connection ends without a close frame
(dropped: what a browser reports as 1006), or if the server closes it with 1011. At the end
``/healthz`` must answer 200, and the presence rows the sockets left behind are counted (each
closed socket should have taken its own away). Each distinct failing class (route + what was
sent) is replayed alone, made smaller while it still fails (``replay``), and printed with the
server's traceback from its log, grouped by that traceback (``report``).

    .venv/bin/python -m bench.fuzz [--requests 20000] [--handshakes 3000] [--seed 36]

About five minutes on a 2-core machine. Exit status 1 if anything failed; the server's log is
then kept in the directory printed first (``--keep``: always).
"""
