"""Date and number formats for the languages Django has none for (FORMAT_MODULE_PATH)."""
