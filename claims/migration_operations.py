"""Migration operations for a live, large claims table.

An index built or dropped plainly locks the table's writes until it is done: seconds to
minutes at a million claims. On PostgreSQL these build and drop it ``CONCURRENTLY``
(writes go on; the migration must be ``atomic = False``); elsewhere (SQLite, the embedded
default) they are the plain operations. Their effect on the migration state is the plain
ones', so ``makemigrations`` sees the model as it is."""

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db.migrations.operations import AddIndex, RemoveIndex


def _postgresql(schema_editor) -> bool:
    return schema_editor.connection.vendor == "postgresql"


class AddIndexLive(AddIndexConcurrently):
    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if _postgresql(schema_editor):
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        return AddIndex.database_forwards(self, app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if _postgresql(schema_editor):
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        return AddIndex.database_backwards(self, app_label, schema_editor, from_state, to_state)


class RemoveIndexLive(RemoveIndexConcurrently):
    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if _postgresql(schema_editor):
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        return RemoveIndex.database_forwards(self, app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if _postgresql(schema_editor):
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        return RemoveIndex.database_backwards(self, app_label, schema_editor, from_state,
                                              to_state)
