"""The admin site, opened only to staff whose session a second factor verified: a staff
account without one is sent to set it up, with one to the page asking for its code, and a
visitor who is not logged in to the site's log-in (whose second step asks for the code).
``euchre_site.apps.VerifiedAdminConfig`` makes it the site's admin."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _


class VerifiedAdminSite(admin.AdminSite):
    def has_permission(self, request) -> bool:
        verified = getattr(request.user, "is_verified", None)
        return super().has_permission(request) and verified is not None and verified()

    def login(self, request, extra_context=None):
        from games.services import has_second_factor  # after the apps are loaded
        from games.web.views.account_second_factor import verify_url

        target = request.GET.get(REDIRECT_FIELD_NAME) or reverse("admin:index")
        user = request.user
        if not user.is_authenticated or request.method == "POST":
            # The site's log-in, whose second step asks for the code (the admin's has none).
            return redirect_to_login(target, reverse("login"))
        if not (user.is_active and user.is_staff):
            return super().login(request, extra_context)  # Django's "not authorised" page
        if not has_second_factor(user):
            messages.warning(
                request,
                _("The admin opens only with a second factor: set one up here, then open it."),
            )
            return redirect(reverse("account") + "#second-factor")
        return redirect(verify_url(target))

    def get_urls(self):
        health = path("health/", self.admin_view(self.health), name="health")
        return [health, *super().get_urls()]

    def health(self, request):
        """How the site runs, for moderators and operators (staff): the task workers, the
        queues, the sockets open, the errors of the last hour, the version running."""
        from games.web.views.health import health_context  # after the apps are loaded

        context = {**self.each_context(request), **health_context(), "title": "Health"}
        return TemplateResponse(request, "admin/health.html", context)
