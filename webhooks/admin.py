"""Admin of the webhooks: subscriptions with their health, deliveries with every
attempt. Actions call webhooks.services; nothing here sends or edits by hand."""

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from api_common.problem_types import ProblemError
from claims.workflow import EventName
from webhooks import breaker, services
from webhooks.models import ALL_EVENTS, Delivery, DeliveryAttempt, Subscription


class NothingToSaveMixin:
    """Every field is read-only, yet the change permission stays: the list's actions
    (re-enable, ping, redeliver) need it. Without this the page would offer "Salvar"
    buttons that change nothing."""

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {**(extra_context or {}), "title": f"Visualizar {self.opts.verbose_name}",
                         "show_save": False, "show_save_and_continue": False,
                         "show_save_and_add_another": False}
        return super().change_view(request, object_id, form_url, extra_context)


class BreakerFilter(admin.SimpleListFilter):
    title = "disjuntor"
    parameter_name = "disjuntor"

    def lookups(self, request, model_admin):
        return [(state.value, breaker.LABELS[state]) for state in breaker.State]

    def queryset(self, request, queryset):
        now = timezone.now()
        return {
            breaker.State.CLOSED: lambda: queryset.filter(breaker_open_until__isnull=True),
            breaker.State.OPEN: lambda: queryset.filter(breaker.is_open(now)),
            breaker.State.HALF_OPEN: lambda: queryset.filter(breaker_open_until__lte=now),
        }.get(self.value(), lambda: queryset)()


@admin.register(Subscription)
class SubscriptionAdmin(NothingToSaveMixin, admin.ModelAdmin):
    list_display = ["__str__", "channel", "url", "is_active", "health", "breaker_state",
                    "last_success_at", "consecutive_failures", "created_at"]
    list_filter = ["is_active", BreakerFilter, "channel",
                   ("disabled_at", admin.EmptyFieldListFilter),
                   ("deleted_at", admin.EmptyFieldListFilter)]
    search_fields = ["=id", "url", "description", "channel__name"]
    list_select_related = ["channel"]
    actions = ["reenable", "ping"]
    fields = ["id", "channel", "description", "url", "is_active", "events",
              "health", "breaker_state", "breaker_trips", "last_success_at",
              "last_failure_at", "consecutive_failures", "failing_since", "disabled_at", "disabled_reason", "deleted_at",
              "previous_secret_expires_at",
              "created_at", "updated_at"]
    readonly_fields = fields  # the channel owns its subscriptions through the API

    @admin.display(description="eventos habilitados")
    def events(self, subscription):
        """Each event by its name, with the code the channel subscribed to."""
        labels = {**dict(EventName.choices),
                  ALL_EVENTS: "Todos os eventos, inclusive os que vierem a ser criados"}
        # One per line (a list would take the aligned form's indentation).
        return format_html_join(mark_safe("<br>"), "{} <code>{}</code>",
                                ((labels.get(name, name), name) for name in subscription.enabled_events))

    @admin.display(description="saúde")
    def health(self, subscription):
        if subscription.deleted_at:
            return f"Excluída pelo canal em {timezone.localtime(subscription.deleted_at):%d/%m/%Y %H:%M}"
        if subscription.disabled_at:
            return format_html('<strong class="prazo-vencido">Desativada: {}</strong>',
                               subscription.disabled_reason)
        if not subscription.is_active:
            return "Inativa (pelo canal)"
        if subscription.consecutive_failures:
            since = timezone.localtime(subscription.failing_since)
            return format_html('<strong class="prazo-vencido">{} falha(s) seguida(s) desde {}</strong>',
                               subscription.consecutive_failures, f"{since:%d/%m/%Y %H:%M}")
        return "Saudável"

    @admin.display(description="disjuntor")
    def breaker_state(self, subscription):
        """Closed, open until when (its deliveries wait), or letting one probe through."""
        state = breaker.state(subscription, timezone.now())
        if state is breaker.State.OPEN:
            until = timezone.localtime(subscription.breaker_open_until)
            return format_html('<strong class="prazo-vencido">{} até {}</strong>',
                               breaker.LABELS[state], f"{until:%d/%m/%Y %H:%M:%S}")
        return breaker.LABELS[state]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Reativar as assinaturas selecionadas", permissions=["change"])
    def reenable(self, request, queryset):
        done = 0
        for subscription in queryset.select_related("channel"):
            try:
                services.update_subscription(channel=subscription.channel,
                                             subscription_id=subscription.pk, is_active=True)
                done += 1
            except ProblemError as refusal:  # e.g. deleted by the channel
                messages.error(request, f"{subscription}: {refusal.detail}")
        if done:
            messages.success(request, f"{done} assinatura(s) reativada(s).")

    @admin.action(description="Enviar um ping às assinaturas selecionadas", permissions=["change"])
    def ping(self, request, queryset):
        sent = 0
        for subscription in queryset.select_related("channel"):
            try:
                services.send_test_delivery(channel=subscription.channel,
                                            subscription_id=subscription.pk)
                sent += 1
            except ProblemError as refusal:  # e.g. an inactive subscription
                messages.error(request, f"{subscription}: {refusal.detail}")
        if sent:
            messages.success(request, f"Ping enviado a {sent} assinatura(s).")


class DeliveryAttemptInline(admin.TabularInline):
    model = DeliveryAttempt
    fields = ["attempted_at", "status_code", "duration_ms", "error_class", "receiver_fault",
              "response_excerpt"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Delivery)
class DeliveryAdmin(NothingToSaveMixin, admin.ModelAdmin):
    list_display = ["created_at", "event_name", "subscription", "status", "attempt_count",
                    "next_attempt_at", "delivered_at"]
    list_filter = ["status", "event_name", "subscription__channel"]
    search_fields = ["=id", "=message_id", "subscription__url"]
    list_select_related = ["subscription"]
    actions = ["redeliver"]
    inlines = [DeliveryAttemptInline]
    fields = ["id", "subscription", "event", "message_id", "event_name", "status",
              "attempt_count", "next_attempt_at", "lease_until", "delivered_at", "created_at",
              "body"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Reenviar as entregas selecionadas", permissions=["change"])
    def redeliver(self, request, queryset):
        sent = 0
        for delivery in queryset.select_related("subscription__channel"):
            try:
                services.redeliver(channel=delivery.subscription.channel,
                                   subscription_id=delivery.subscription_id,
                                   delivery_id=delivery.pk)
                sent += 1
            except ProblemError as refusal:  # e.g. its subscription is inactive
                messages.error(request, f"{delivery}: {refusal.detail}")
        if sent:
            messages.success(request, f"{sent} entrega(s) reenfileirada(s).")
