"""The review of the site's words by players who read a language: each message in context (the
English, the wording the site has now, the page it was seen on) and a form to suggest better
wording; the thanks page names the players whose suggestions were taken, if they wish."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, get_language_info
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ... import services
from ...db import selectors
from ...errors import GameError
from ...i18n import catalogues
from ...presentation import placeholders, refusals
from ...services import throttle
from ..forms import SuggestionForm
from .common import client_key, safe_target, wait_page

PAGE_SIZE = 20


def _languages() -> list[tuple[str, str]]:
    """The languages reviewed, each named in its own words (as the site's switcher names them):
    the page is for those who read it."""
    return [
        (code, get_language_info(code)["name_local"])
        for code, _name in settings.LANGUAGES
        if code != "en"
    ]


def _language(request: HttpRequest) -> str:
    """The language asked for, else the one the page is in, else the first that is not English."""
    codes = [code for code, _name in _languages()]
    for code in (request.POST.get("language"), request.GET.get("language"), get_language()):
        if code in codes:
            return code
    return codes[0]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def review(request: HttpRequest) -> HttpResponse:
    """GET: a language's messages, searched. POST (the footer's "Improve this translation"): the
    messages of the page the player came from, found in the words that page showed."""
    language = _language(request)
    query = request.GET.get("q", "")[:200]
    page_text = request.POST.get("text", "") if request.method == "POST" else ""
    came_from = safe_target(request, request.POST.get("page", ""), "") if page_text else ""
    if page_text:
        try:  # each costs a search of the page's words: a player asks once per page read
            limit = settings.TRANSLATE_PAGES_PER_MINUTE
            throttle.hit("translate-page", str(request.user.pk), limit, 60)
            throttle.hit("translate-page-ip", client_key(request), 3 * limit, 60)
        except throttle.Throttled as error:
            return wait_page(request, refusals.words(error), error.retry_after)
        found = catalogues.page_messages(language, page_text).found
    else:
        found = catalogues.messages(language, query=query)
    pages = Paginator(found, PAGE_SIZE)
    page = pages.get_page(request.GET.get("page"))
    mine = selectors.translation_suggestions_open(user=request.user, language=language)
    for message in page.object_list:
        message["waiting"] = (message["msgctxt"], message["msgid"]) in mine
        message["chips"] = placeholders.placeholder_chips(message["msgid"])
        message["msgid_parts"] = placeholders.placeholder_parts(message["msgid"])
        message["msgstr_parts"] = placeholders.placeholder_parts(message["msgstr"])
    context = {
        "languages": _languages(),
        "language": language,
        "query": query,
        "came_from": came_from,
        "page": page,
        "more": urlencode({"language": language, "q": query}),
        "sent": request.GET.get("sent") == "1",
    }
    return render(request, "translate.html", context)


@login_required
@require_POST
def suggest(request: HttpRequest) -> HttpResponse:
    form = SuggestionForm(request.POST)
    if not form.is_valid():
        context = {"title": "", "message": form.error_words()}
        return render(request, "error.html", context, status=400)
    data = form.cleaned_data
    try:
        services.translation_suggest(author=request.user, **data)
    except GameError as error:
        context = {"title": "", "message": refusals.words(error)}
        return render(request, "error.html", context, status=refusals.status(error))
    query = urlencode({"language": data["language"], "q": data["msgid"][:200], "sent": "1"})
    return redirect(f"{reverse('translate')}?{query}")


@require_safe
def thanks(request: HttpRequest) -> HttpResponse:
    """The players whose wording the site took, by language, among those who asked to be named."""
    names = dict(_languages())
    credits = [
        {"language": names.get(row["language"], row["language"]), **row}
        for row in selectors.translation_credits()
    ]
    return render(request, "translate_thanks.html", {"credits": credits})
