"""What models of several aggregates share: rows written once and never changed."""

from __future__ import annotations

from django.db import models


class AppendOnly(models.Model):
    """Rows that are written once and never changed or deleted (history, audit)."""

    append_only = "This record is append-only"  # the refusal, worded by each model

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValueError(f"{self.append_only}: a saved one is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{self.append_only}: a saved one is never deleted")
