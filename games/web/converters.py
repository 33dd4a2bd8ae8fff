"""Path converters for the site's urls and websocket routes (registered on import)."""

from django.urls import register_converter


class MatchIdConverter:
    """A match id: at most 18 digits, so it always fits the database's 64-bit key (a longer
    number is simply a page that does not exist, not a database error)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(MatchIdConverter, "match")
register_converter(MatchIdConverter, "id")  # any other row's id (a challenge's)
