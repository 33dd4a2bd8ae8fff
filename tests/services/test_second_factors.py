"""Second factors: set up with a code, then an app's code taken once, recovery codes used up,
attempts limited, turned off only with the password and a code; all in the account log."""

from __future__ import annotations

import pytest
from django_otp.plugins.otp_totp.models import TOTPDevice

from games import services
from games.models import AccountEvent
from games.services import second_factors
from tests.support.second_factors import code_now, wrong_code

pytestmark = pytest.mark.django_db


def set_up(user) -> tuple[TOTPDevice, list[str]]:
    device = second_factors.second_factor_begin(user=user)
    # The next time step's code: the one a later check takes is then unused (no replay).
    return second_factors.second_factor_confirm(user=user, code=code_now(device))


def logged(user) -> list[str]:
    return list(
        AccountEvent.objects.filter(user=user).order_by("pk").values_list("kind", flat=True)
    )


def test_a_key_counts_only_once_a_code_from_the_app_confirms_it(alice):
    device = second_factors.second_factor_begin(user=alice)
    assert not services.has_second_factor(alice)
    with pytest.raises(services.GameError) as refused:
        second_factors.second_factor_confirm(user=alice, code=wrong_code(device))
    assert refused.value.code == "second_factor_wrong" and not services.has_second_factor(alice)
    device, codes = second_factors.second_factor_confirm(user=alice, code=code_now(device))
    assert services.has_second_factor(alice) and device.confirmed
    assert len(codes) == 10 and len(set(codes)) == 10
    assert second_factors.recovery_codes_left(user=alice) == 10
    assert logged(alice) == ["second_factor_refused", "second_factor_set", "recovery_codes_made"]


def test_an_apps_code_is_taken_once_and_a_replay_is_refused_in_words(alice):
    device, _ = set_up(alice)
    # The confirmation took the current step: the next step's code is new.
    fresh = code_now(device, steps_ahead=1)
    assert services.second_factor_check(alice, fresh)
    with pytest.raises(services.GameError) as replayed:
        second_factors.second_factor_verify(user=alice, code=fresh)
    assert replayed.value.code == "second_factor_replayed"
    assert not services.second_factor_check(alice, fresh)


def test_a_wrong_code_is_refused_and_logged(alice):
    device, _ = set_up(alice)
    assert not services.second_factor_check(alice, wrong_code(device))
    assert not services.second_factor_check(alice, "not a code")
    assert logged(alice)[-2:] == ["second_factor_refused", "second_factor_refused"]


def test_recovery_codes_work_once_each(alice):
    _, codes = set_up(alice)
    assert services.second_factor_check(alice, codes[0].upper())  # as typed, in capitals
    assert not services.second_factor_check(alice, codes[0])
    assert second_factors.recovery_codes_left(user=alice) == 9
    assert "recovery_code_used" in logged(alice)


def test_past_the_attempts_limit_even_a_right_code_is_refused(alice, settings):
    settings.SECOND_FACTOR_ATTEMPTS = 3
    device, codes = set_up(alice)  # the confirmation was one attempt
    for _ in range(2):
        assert not services.second_factor_check(alice, "nothing")
    with pytest.raises(services.GameError) as refused:
        second_factors.second_factor_verify(user=alice, code=codes[0])
    assert refused.value.code == "second_factor_attempts" and refused.value.params["seconds"] > 0
    assert not services.second_factor_check(alice, code_now(device, 1))
    assert second_factors.recovery_codes_left(user=alice) == 10  # the code was not used up


def test_turning_it_off_needs_the_password_and_a_code(alice):
    device, codes = set_up(alice)
    with pytest.raises(services.GameError) as refused:
        second_factors.second_factor_remove(user=alice, password="wrong", code=codes[0])
    assert refused.value.code == "second_factor_password_wrong"
    with pytest.raises(services.GameError) as refused:
        second_factors.second_factor_remove(user=alice, password="correct horse 1", code="nope")
    assert refused.value.code == "second_factor_wrong" and services.has_second_factor(alice)
    second_factors.second_factor_remove(user=alice, password="correct horse 1", code=codes[1])
    assert not services.has_second_factor(alice)
    assert second_factors.recovery_codes_left(user=alice) == 0
    assert logged(alice)[-1] == "second_factor_removed"


def test_new_recovery_codes_replace_the_old_ones(alice):
    _, old = set_up(alice)
    new = second_factors.recovery_codes_renew(user=alice, password="correct horse 1", code=old[0])
    assert not set(new) & set(old)
    assert not services.second_factor_check(alice, old[1])
    assert services.second_factor_check(alice, new[0])


def test_an_operator_resets_a_lost_second_factor_and_it_is_logged(alice):
    from io import StringIO

    from django.core.management import call_command

    set_up(alice)
    said = StringIO()
    call_command("second_factor_reset", "ALICE", operator="ops", stdout=said)
    assert "Removed the second factor of alice" in said.getvalue()
    assert not services.has_second_factor(alice)
    event = AccountEvent.objects.filter(user=alice).first()
    assert event.kind == "second_factor_removed" and "ops" in event.detail
    call_command("second_factor_reset", "alice", stdout=said)
    assert "has no second factor" in said.getvalue()
