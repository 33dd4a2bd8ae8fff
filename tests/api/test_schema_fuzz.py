"""schemathesis fuzzes the API from the schema it publishes (``/api/v1/openapi.json``),
through the site's own WSGI application, as a program with a real token: every operation
with data drawn from its schema and data that breaks it, then sequences of calls linked by
what one answer gives the next (ids inferred from the schema by schemathesis). No answer may
be a 5xx, and every answer must be one the schema documents, in the shape it gives.

The streams are left out: an answer that never ends (tests/api/test_streams.py and
tests/api/test_stream_contract.py cover them). Deterministic (hypothesis derandomized) and
bounded: a few examples an operation, a few steps a sequence."""

from __future__ import annotations

import hypothesis
import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, given
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from games.models import Match
from tests.support.api import program, refused, token_for
from tests.support.matches import start

pytestmark = pytest.mark.django_db

# Cases per operation and mode, sequences and their steps: the module in about a minute.
BOUNDED = hypothesis.settings(
    max_examples=10,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
SEQUENCES = hypothesis.settings(BOUNDED, max_examples=12, stateful_step_count=8)


@pytest.fixture
def wsgi(alice, bob, settings):
    """The site's WSGI application in this test's transaction, with alice's token and a
    match of hers in play to find."""
    # As Django's test client: a request's end must not close the test's connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    settings.API_REQUESTS_PER_MINUTE = 100_000
    settings.MOVE_LIMIT_PER_10_SECONDS = 100_000
    start(alice, bob, move_seconds=None)
    yield get_wsgi_application(), token_for(alice)
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(wsgi):
    app, token = wsgi
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    schema.config.headers = {"Authorization": f"Bearer {token}"}
    return schema.exclude(path_regex="/stream/")


def test_every_operation_answers_as_its_schema_says(api_schema):
    # Not schemathesis' pytest plugin (its parametrize by fixture needs a pytest before 9):
    # each operation's cases drawn here, and every operation tried before the test fails.
    failed = {}
    for found in api_schema.get_all_operations():
        operation = found.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @BOUNDED
            @given(case=operation.as_strategy(generation_mode=mode))
            def answers(case):
                case.call_and_validate()

            try:
                answers()
            except Unsatisfiable:  # nothing to break: an operation without parameters
                assert mode == GenerationMode.NEGATIVE
            except (Exception, BaseExceptionGroup) as error:  # schemathesis: a group
                failed[f"{operation.label} ({mode})"] = error
    assert not failed, "\n\n".join(f"{label}: {error}" for label, error in failed.items())


def test_sequences_of_calls_answer_as_the_schema_says(api_schema):
    calls = api_schema.as_state_machine()

    class FromTheSameStart(calls):
        """Each sequence starts from the site as the fixture left it: what an earlier one made
        is rolled back (a savepoint in the test's transaction). Otherwise a later sequence
        meets another's matches and challenges, and hypothesis, replaying the first steps of a
        sequence, finds other answers to them than the first time (FlakyStrategyDefinition)."""

        def setup(self) -> None:
            super().setup()
            self.savepoint = transaction.savepoint()

        def teardown(self) -> None:
            transaction.savepoint_rollback(self.savepoint)
            super().teardown()

    FromTheSameStart.run(settings=SEQUENCES)


# What the fuzzing found, kept as examples.


def test_a_body_that_is_not_a_json_object_is_refused_and_makes_nothing(alice):
    api = program(token_for(alice))
    for body in ["3", "[1, 2]", '"a match"', "true"]:
        answer = api.post("/api/v1/matches", body, content_type="application/json")
        refused(answer, 400, "invalid")
    assert not Match.objects.exists()


def test_an_id_that_is_not_a_number_is_the_api_s_404_in_json_not_the_site_s_page(alice):
    api = program(token_for(alice))
    for path in ["/api/v1/matches/1.5", "/api/v1/matches/abc/move", "/api/v1/challenges/-1/accept"]:
        answer = api.get(path) if path.endswith("1.5") else api.post(path)
        body = refused(answer, 404, "not_found")
        assert body["detail"] == "There is nothing here"
