"""Migration operations for a live, large claims table.

An index built or dropped plainly locks the table's writes until it is done: seconds to
minutes at a million claims. On PostgreSQL these build and drop it ``CONCURRENTLY``
(writes go on; the migration must be ``atomic = False``); elsewhere (SQLite, the embedded
default) they are the plain operations. Their effect on the migration state is the plain
ones', so ``makemigrations`` sees the model as it is."""

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db.migrations.operations import AddIndex, RemoveIndex


class _Live:
    """Concurrently on PostgreSQL (the concurrent operation, ``super()``), else the
    ``plain`` operation's own SQL."""

    plain: type

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        return self.plain.database_forwards(self, app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        return self.plain.database_backwards(self, app_label, schema_editor, from_state,
                                             to_state)


class AddIndexLive(_Live, AddIndexConcurrently):
    plain = AddIndex


class RemoveIndexLive(_Live, RemoveIndexConcurrently):
    plain = RemoveIndex
