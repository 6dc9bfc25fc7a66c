from django.apps import AppConfig


class ClaimsConfig(AppConfig):
    default = True
    name = "claims"
    verbose_name = "Sinistros"

    def ready(self):
        # Registers the problem types (each error class registers itself) for the problem
        # pages and docs.
        from claims import errors  # noqa: F401
        from claims.documents import errors as file_errors  # noqa: F401
