"""What the admin screens share: pages people read and nobody writes."""

from django.contrib.admin.utils import flatten_fieldsets


class NoWrites:
    """Nobody adds, changes or deletes here, a superuser neither: the rows are records
    (events, movements, runs) that only services write. Who may read is the page's own
    rule (its module and view permissions)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyMixin(NoWrites):
    """A change form shown with every field read only."""

    def get_readonly_fields(self, request, obj=None):
        if self.fieldsets:
            return flatten_fieldsets(self.fieldsets)
        return self.fields or [field.name for field in self.model._meta.fields]
