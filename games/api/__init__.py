"""The API for programs (``/api/v1/``): the same services, move pipeline and views of a seat
as the site's pages, answered in JSON and streamed as newline-delimited JSON or over a
websocket. A personal token (``Authorization: Bearer``) stands for its player.

    auth      the bearer token, its scopes, the request limit
    shapes    matches, views and players as JSON, built from view_for
    feeds     the events of an account and of a match, read from the database by version
    streams   those events over a streaming http response and over a websocket
    views     the endpoints (django-ninja), their errors in JSON with the player's words
"""
