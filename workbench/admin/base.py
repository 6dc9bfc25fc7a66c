"""What the claims admin screens share."""

from django.contrib.admin.utils import flatten_fieldsets


class ReadOnlyMixin:
    def get_readonly_fields(self, request, obj=None):
        if self.fieldsets:
            return flatten_fieldsets(self.fieldsets)
        return self.fields or [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
