"""The site's addresses and one that fails (``/boom``), for tests of what the site records of
a server error: ``settings.ROOT_URLCONF = "tests.support.failing_urls"``."""

from django.urls import path

from euchre_site.urls import handler500
from euchre_site.urls import urlpatterns as site


def boom(request):
    raise RuntimeError("the view fell over")


urlpatterns = [path("boom", boom), *site]
__all__ = ["handler500", "urlpatterns"]
