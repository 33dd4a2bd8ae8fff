"""Fixtures of the site's pages' tests."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.support.second_factors import log_in


@pytest.fixture
def moderator(django_user_model, moderators_group):
    user = django_user_model.objects.create_user("mod", password="Moderate-me-1", is_staff=True)
    user.groups.add(moderators_group)
    client = Client()
    log_in(client, user)
    user.client = client
    return user
