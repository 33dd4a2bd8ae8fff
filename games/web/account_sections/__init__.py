"""What each section of the account page (``views.account``) shows by default: one module a
section, each with ``context(request) -> dict``. A section's own views re-render the page
through ``views.account.account_render`` with their bound forms in place of these."""
