"""Persistence for users' matches: added with the accounts-and-play work."""
