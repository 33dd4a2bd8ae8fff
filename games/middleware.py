"""Every refusal says why in words: Django answers a wrong method (405) with an empty body."""

from __future__ import annotations

from django.shortcuts import render


class ExplainRefusals:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 405 and not response.content:
            allowed = response.get("Allow", "")
            explained = render(
                request,
                "error.html",
                {
                    "title": "Not this way",
                    "message": f"This address does not take {request.method} requests"
                    + (f" (only {allowed})." if allowed else "."),
                },
                status=405,
            )
            explained["Allow"] = allowed
            return explained
        return response
