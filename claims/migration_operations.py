"""Migration operations for a live, large claims table.

An index built or dropped plainly, or a ``SET NOT NULL`` (``SetNotNullLive``), locks the
table's writes until it is done: seconds to minutes at a million claims. On PostgreSQL these build and drop it ``CONCURRENTLY``
(writes go on; the migration must be ``atomic = False``); elsewhere (SQLite, the embedded
default) they are the plain operations. Their effect on the migration state is the plain
ones', so ``makemigrations`` sees the model as it is."""

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db.migrations.operations import AddIndex, AlterField, RemoveIndex


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


class SetNotNullLive(AlterField):
    """A nullable column made ``NOT NULL`` (the field's only change) without the long lock:
    ``SET NOT NULL`` alone reads the whole table under an exclusive lock. On PostgreSQL a
    ``CHECK (column IS NOT NULL)`` is added unchecked, validated (which reads the table
    but lets writes go on), and then ``SET NOT NULL`` trusts it and reads nothing."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        model = to_state.apps.get_model(app_label, self.model_name)
        table = schema_editor.quote_name(model._meta.db_table)
        column_name = model._meta.get_field(self.name).column
        column = schema_editor.quote_name(column_name)
        check = schema_editor.quote_name(f"{model._meta.db_table}_{column_name}_not_null")
        for statement in (
            f"ALTER TABLE {table} ADD CONSTRAINT {check} CHECK ({column} IS NOT NULL) NOT VALID",
            f"ALTER TABLE {table} VALIDATE CONSTRAINT {check}",
            f"ALTER TABLE {table} ALTER COLUMN {column} SET NOT NULL",
            f"ALTER TABLE {table} DROP CONSTRAINT {check}",
        ):
            schema_editor.execute(statement)


def create_permissions_now(apps) -> None:
    """Django creates the models' permissions after every migration has run
    (``post_migrate``); a migration that grants them to a role needs them now, from the
    historical models."""
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        # A historical app has no models module, and create_permissions skips such an
        # app: it is lent one for the call. Whatever the app had is given back, so the
        # project's own registry (a test calls a migration's function with it) keeps
        # its modules: with them set to None, every later flush made no content types.
        models_module = getattr(app_config, "models_module", None)
        app_config.models_module = models_module or True
        try:
            create_permissions(app_config, apps=apps, verbosity=0)
        finally:
            app_config.models_module = models_module
