"""Django's admin app with the site's own admin site (``euchre_site.admin``: staff open it
only in a session a second factor verified). Here, apart from that site, because an app's
config is imported before the models are ready."""

from django.contrib.admin.apps import AdminConfig


class VerifiedAdminConfig(AdminConfig):
    default_site = "euchre_site.admin.VerifiedAdminSite"
