"""Migration tests: the claims app taken back to a migration, rows written with that
migration's models, then forward again, as a deploy runs them."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """Migrate to ``targets`` ([(app, migration)]); returns the apps of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def to_the_newest():
    """Every app to its newest migration, as the test database was before."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
