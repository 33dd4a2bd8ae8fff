"""The API's match is made from the match's public face (``games.public``), and the schema
(``games.api.schemas``) declares what it makes: every field the JSON emits is a property of
the schema's component, and every property the component declares is emitted (and required),
at every stage of a match and in every nested shape. The same face makes the boards."""

from __future__ import annotations

import dataclasses
import json

import pytest

from games import services
from games.api import schemas
from games.db import selectors
from games.models import Match
from games.public import PublicMatch, shapes
from tests.support import contract
from tests.support.matches import both_acted, play_to_the_end, start

pytestmark = pytest.mark.django_db


def _resolved(schema: dict, components: dict) -> dict:
    """``schema`` with a reference followed, and a nullable one (``anyOf`` with null) taken as
    the shape it allows besides null."""
    if "$ref" in schema:
        return _resolved(components[schema["$ref"].rsplit("/", 1)[1]], components)
    shapes_allowed = [s for s in schema.get("anyOf", []) if s.get("type") != "null"]
    if len(shapes_allowed) == 1:
        return _resolved(shapes_allowed[0], components)
    return schema


def mismatches(value, schema: dict, components: dict, where="", required=True) -> list[str]:
    """Where ``value`` and ``schema`` disagree on the fields of an object, at any depth
    (``required``: and a field the schema lets an answer leave out, which this one emits)."""
    schema = _resolved(schema, components)
    if isinstance(value, dict) and "properties" in schema:
        declared, emitted = set(schema["properties"]), set(value)
        found = [f"{where}.{k}: emitted, not in the schema" for k in sorted(emitted - declared)]
        found += [f"{where}.{k}: in the schema, not emitted" for k in sorted(declared - emitted)]
        if required:
            optional = declared - set(schema.get("required", ()))
            found += [f"{where}.{k}: optional in the schema" for k in sorted(optional)]
        for key in sorted(emitted & declared):
            inner = schema["properties"][key]
            found += mismatches(value[key], inner, components, f"{where}.{key}", required)
        return found
    if isinstance(value, list) and "items" in schema:
        return [
            problem
            for number, item in enumerate(value)
            for problem in mismatches(
                item, schema["items"], components, f"{where}[{number}]", required
            )
        ]
    return []


def stages(alice, bob) -> list[Match]:
    """A match at each stage whose JSON differs in shape or in what is null: waiting for an
    opponent, called off before the deal, in play with a clock, finished with a rematch
    offered, and a casual one against the computer."""
    waiting = services.match_create(user=alice, move_seconds=None)
    called_off = services.match_abort(
        user=alice, match_id=services.match_create(user=alice, rated=False).pk
    )
    playing = both_acted(start(alice, bob, move_seconds=60))
    finished = play_to_the_end(start(alice, bob, move_seconds=None, target=5))
    finished = services.rematch_offer(user=alice, match_id=finished.pk)
    computer = services.match_create_computer(user=bob, strength="easy")
    return [waiting, called_off, playing, finished, computer]


def test_the_api_match_and_its_schema_name_the_same_fields_at_every_stage(alice, bob, carol):
    components = schemas.components()
    for row in stages(alice, bob):
        match = selectors.match_for_viewer(match_id=row.pk, user=carol)
        for viewer in (alice, bob, carol):
            answer = json.loads(json.dumps(shapes.answer(match, viewer)))  # as sent
            assert mismatches(answer["match"], components["Match"], components) == [], row.status
            # The view: the engine's dataclass, published as it is (its defaults optional).
            both = mismatches(answer, components["MatchAndView"], components, required=False)
            assert both == [], row.status
            contract.valid("MatchAndView", answer)


def test_the_options_are_the_match_rows_and_its_public_faces(alice):
    public = PublicMatch.of(services.match_create(user=alice, target=5, deck=25))
    declared = list(schemas.Options.model_fields)
    assert declared == list(Match.OPTION_FIELDS) == list(public.options())
    assert public.options()["target"] == 5 and public.options()["deck"] == 25


def test_the_api_match_is_its_public_faces_and_shows_no_seed_in_play(alice, bob):
    match = start(alice, bob, move_seconds=None)
    public = shapes.public(match)
    shown = shapes.match_public(public, match.state)
    assert shown["commitment"] == public.commitment and shown["seed"] is None
    assert shown["players"] == [
        {"id": alice.pk, "username": "alice", "bot": False},
        {"id": bob.pk, "username": "bob", "bot": False},
    ]
    # What the JSON says comes from the face alone: the same face, the same JSON.
    assert shapes.match_public(dataclasses.replace(public), match.state) == shown
    over = services.match_resign(user=alice, match_id=both_acted(match).pk)
    shown = shapes.match_public(shapes.public(over), over.state)
    assert shown["seed"] == over.seed and shown["winner"] == 1 and shown["status"] == "finished"


def test_the_check_sees_a_field_on_one_side_only(alice):
    components = schemas.components()
    match = services.match_create(user=alice)
    shown = json.loads(json.dumps(shapes.match_public(shapes.public(match), match.state)))
    assert mismatches(shown, components["Match"], components) == []
    shown["options"]["jokers"] = 1  # a field added to the JSON without the schema
    del shown["arena_id"]  # one the schema names that the JSON lost
    assert mismatches(shown, components["Match"], components) == [
        ".arena_id: in the schema, not emitted",
        ".options.jokers: emitted, not in the schema",
    ]
