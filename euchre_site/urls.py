from django.contrib import admin
from django.urls import include, path, re_path

from games.api.views import api, no_such_endpoint
from games.web.views.api_docs import api_index, api_reference

urlpatterns = [
    path("admin/", admin.site.urls),
    # The API's reference page in the site's frame, in place of the Swagger page of ninja's;
    # its front door leads a browser there and tells a program where things are.
    path("api/v1/docs", api_reference, name="api_docs"),
    path("api/", api_index),
    path("api/v1/", api_index, name="api_index"),
    path("api/v1/", api.urls),
    re_path(r"^api/v1/", no_such_endpoint),  # the API's own 404, in JSON
    path("", include("games.web.urls")),
]

# Error pages that never read the request's body (Django's own do, through the CSRF check).
handler400 = "games.web.views.errors.bad_request"
handler403 = "games.web.views.errors.permission_denied"
handler404 = "games.web.views.errors.page_not_found"
handler500 = "games.web.views.errors.server_error"
