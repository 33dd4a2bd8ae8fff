"""Helpers shared by tests: fixtures and builders that more than one test module uses (a test
module never imports another)."""
