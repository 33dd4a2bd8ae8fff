"""Django's own texts that players see, marked here so that our catalogues carry them.

Django ships no catalogue for Somali or Haitian Creole and only parts of one for Amharic and
Burmese; our catalogues (LOCALE_PATHS) come first, so ``update_catalogues`` keeps these exact
msgids in them and translators translate them with the rest. Nothing imports this module: it
is read by makemessages. A test checks that each text is still one of Django's (an upgrade
that rewords one shows up there) and renders every page they appear on in every language.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

# Forms (django/conf/locale): field errors on sign-up and the password pages.
FORMS = [
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Null characters are not allowed."),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
]

# Accounts (django/contrib/auth/locale): the user's fields, the auth forms, the validators.
AUTH = [
    gettext_noop("username"),
    gettext_noop("email address"),
    gettext_noop("first name"),
    gettext_noop("last name"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("A user with that username already exists."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ "
        "characters."
    ),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
    gettext_noop("Email"),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
]

# The admin's log-in page (django/contrib/admin/locale).
ADMIN = [
    gettext_noop("Django site admin"),
    gettext_noop("Django administration"),
    gettext_noop("Log in"),
    gettext_noop("Error:"),
    gettext_noop("Skip to main content"),
    gettext_noop("Toggle theme (current theme: auto)"),
    gettext_noop("Toggle theme (current theme: light)"),
    gettext_noop("Toggle theme (current theme: dark)"),
    gettext_noop(
        "Please enter the correct %(username)s and password for a staff account. Note that "
        "both fields may be case-sensitive."
    ),
    gettext_noop(
        "You are authenticated as %(username)s, but are not authorized to access this page. "
        "Would you like to login to a different account?"
    ),
    ngettext_lazy("Please correct the error below.", "Please correct the errors below.", "count"),
]
