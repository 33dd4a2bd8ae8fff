"""Dates as numbers, day first, for the languages Django has no month names in."""

DATE_FORMAT = "j/n/Y"
SHORT_DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "j/n/Y H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
