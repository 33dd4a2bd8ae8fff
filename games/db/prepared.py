"""Reads and writes that run at every move, their SQL built once per process instead of at
every call.

Django builds a query's SQL afresh each time it runs: for the locked match with its players
(five tables) that is about three quarters of the read's CPU, before anything reaches the
database, and likewise for a move's two writes. A ``Prepared`` read is built once from an
ordinary queryset with placeholder values; later calls put their own values where the
placeholders were and run the same SQL, and the rows become model instances as the queryset
makes them (its ``select_related`` objects included): ``from_db`` with the same related
populators, after the same converters. ``insert`` and ``update_fields`` are ``save()`` and
``save(update_fields=...)`` with their statement written once per model, columns and database
from the model's metadata, each value prepared by its field as the ORM prepares it
(``pre_save``, then ``get_db_prep_save``), for models of one table whose columns all come from
the instance (others are refused).

No library does this for current Django (django-prepared-queries stopped at Django 1.11), so
it leans on the few internals a queryset's own iteration uses (``ModelIterable``): the
compiler's ``as_sql``, ``klass_info``, ``select``, ``get_converters`` and
``get_related_populators``. A queryset with annotations, ``only()``/``defer()`` or prefetches
is refused when first compiled. The writes send no model signals: they are used only for
models nothing listens to. tests/test_prepared.py compares every prepared read and write with
the ORM's own, and checks that nothing listens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import DatabaseError, connections, router
from django.db.models import NOT_PROVIDED, Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[int, ...]  # where each value goes in ``params``, in the order given
    converters: list  # (position, (converters, expression)), as get_converters gives them
    model: type[Model]
    init_list: list[str]
    start: int
    end: int
    populators: list


class Prepared:
    """A read compiled once per process and database. ``build(*placeholders)`` returns the
    queryset; each placeholder must be a value none of the query's constants equals and must
    appear in its SQL parameters exactly once, within its field's range (Django leaves out
    of the SQL a condition on a value the field cannot hold), e.g. ``2_147_400_001`` for an
    id. Each value must be of its placeholder's type.
    ``all(*values)`` is then ``list(build(*values))`` and ``first(*values)`` its first row or
    None (slice and order in ``build``: nothing is added)."""

    def __init__(self, build: Callable[..., QuerySet], *placeholders):
        self.build = build
        self.placeholders = placeholders
        queryset = build(*placeholders)
        self.model = queryset.model
        self.locks = bool(queryset.query.select_for_update)
        self._by_alias: dict[str, _Compiled] = {}

    def all(self, *values) -> list:
        # As the ORM: a locking read goes to the database written to, and only in a transaction
        # (the ORM checks it while compiling, which happens once here).
        alias = (router.db_for_write if self.locks else router.db_for_read)(self.model)
        connection = connections[alias]
        if self.locks and connection.features.has_select_for_update and connection.get_autocommit():
            raise TransactionManagementError("select_for_update outside of a transaction")
        compiled = self._compiled(alias)
        params = list(compiled.params)
        for slot, placeholder, value in zip(compiled.slots, self.placeholders, values, strict=True):
            if not isinstance(value, type(placeholder)):  # None or a number is no digest
                raise TypeError(f"{value!r} is not a {type(placeholder).__name__}")
            params[slot] = type(params[slot])(value)  # wrapped as the compiler wrapped it
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        found = []
        for row in rows:
            if compiled.converters:  # as the compiler's apply_converters, with this connection
                row = list(row)
                for pos, (convert, expression) in compiled.converters:
                    value = row[pos]
                    for converter in convert:
                        value = converter(value, expression, connection)
                    row[pos] = value
            obj = compiled.model.from_db(
                alias, compiled.init_list, row[compiled.start : compiled.end]
            )
            for populator in compiled.populators:
                populator.populate(row, obj)
            found.append(obj)
        return found

    def forget(self) -> None:
        """Compile again at the next call."""
        self._by_alias.clear()

    def first(self, *values) -> Any:
        found = self.all(*values)
        return found[0] if found else None

    def _compiled(self, alias: str) -> _Compiled:
        # Once per process, not per thread: under ASGI each request runs in a thread of its
        # own. Two threads that compile at once both keep a correct answer.
        compiled = self._by_alias.get(alias)
        if compiled is None:
            compiled = self._by_alias[alias] = self._compile(alias)
        return compiled

    def _compile(self, alias: str) -> _Compiled:
        queryset = self.build(*self.placeholders)
        query = queryset.query
        shaped = query.annotation_select or query.deferred_loading[0]
        if shaped or queryset._prefetch_related_lookups:
            raise ValueError("a prepared read takes whole rows: no annotations, only(), prefetch")
        compiler = query.get_compiler(using=alias)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:  # a placeholder that no value of its field can equal
            raise ValueError("a placeholder is out of its field's range") from None
        slots = []
        for placeholder in self.placeholders:
            kind = type(placeholder)  # PostgreSQL's may be wrapped (psycopg's Int4: an int)
            at = [i for i, p in enumerate(params) if isinstance(p, kind) and p == placeholder]
            if len(at) != 1:
                raise ValueError(f"placeholder {placeholder!r} is in the parameters {len(at)}×")
            slots.append(at[0])
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slots=tuple(slots),
            converters=list(
                compiler.get_converters([s[0] for s in select[: compiler.col_count]]).items()
            ),
            model=klass_info["model"],
            init_list=[f[0].target.attname for f in select[start:end]],
            start=start,
            end=end,
            populators=get_related_populators(klass_info, select, alias),
        )


def insert(instance: Model) -> None:
    """``instance.save()`` for a new row (its key is the database's, set on it afterwards)."""
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    sql, fields, returns = _insert_sql(model, alias)
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        key = cursor.fetchone()[0] if returns else cursor.lastrowid
    setattr(instance, model._meta.pk.attname, key)
    instance._state.adding, instance._state.db = False, alias


def update_fields(instance: Model, fields: tuple[str, ...]) -> None:
    """``instance.save(update_fields=fields)``: those columns of its row written from it.
    Raises DatabaseError, as ``save`` does, if no row has its key."""
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    sql, targets = _update_sql(model, fields, alias)
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in targets]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, instance.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


@cache
def _insert_sql(model: type[Model], alias: str) -> tuple[str, tuple, bool]:
    """The INSERT of a new row (every column but an automatic key), whether it returns the
    key, and the fields in the order of its values."""
    connection, meta = connections[alias], model._meta
    _simple(model)
    quote = connection.ops.quote_name
    fields = tuple(f for f in meta.local_concrete_fields if f is not meta.auto_field)
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    returns = connection.features.can_return_columns_from_insert
    back = f" RETURNING {quote(meta.pk.column)}" if returns else ""
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks}){back}"  # noqa: S608 - names from the model, values bound
    return sql, fields, returns


@cache
def _update_sql(model: type[Model], fields: tuple[str, ...], alias: str) -> tuple[str, tuple]:
    quote = connections[alias].ops.quote_name
    meta = model._meta
    _simple(model)
    targets = tuple(meta.get_field(name) for name in fields)
    columns = all(f.concrete and not f.primary_key for f in targets)
    if len(set(targets)) != len(targets) or not columns:
        raise ValueError(f"not columns to update once each: {fields}")
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in targets)
    where = f"{quote(meta.pk.column)} = %s"
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {where}"  # noqa: S608 - names from the model, values bound
    return sql, targets


def _simple(model: type[Model]) -> None:
    """The writes here are ``save()``'s for a model of one table whose columns are all written
    from the instance: refused, when first built, for one that ``save()`` treats otherwise."""
    meta = model._meta
    special = [
        f.name
        for f in meta.local_concrete_fields
        if getattr(f, "generated", False) or f.db_default is not NOT_PROVIDED
    ]
    if meta.parents or special or len(meta.db_returning_fields) > 1:
        raise ValueError(f"{model.__name__}: save() writes it otherwise ({special or 'parents'})")
