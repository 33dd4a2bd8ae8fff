"""``{% with form=form|unsuffixed %}`` (templates/_form.html): a form whose labels end in
nothing. Django ends each label with ":", a Latin colon that Burmese and Amharic do not write
("-" and "፦" there), and that reads oddly after a checkbox's label in any language; the
layout already sets each label apart from its field. Here, so that every form the site shows
(its own and Django's password forms alike) goes without one."""

from django import template

register = template.Library()


@register.filter
def unsuffixed(form):
    form.label_suffix = ""
    return form
