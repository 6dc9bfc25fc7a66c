"""The to-dos claims' own moves leave for a supervisor: "Reconsiderar recusa" (a request
for reconsideration) and "Revisar decisão automática" (a review by a person, LGPD
art. 20).

To-dos are the workbench's (``workbench.models.ToDo``), an app above claims, which
claims must not import. The model is reached through the foreign keys that name it by
string (``Reconsideration.task``, ``AutomaticDecision.review_task``), and its choices come
with it. A signal was not enough here: the move's own history row names the to-do's
owner, chosen before the move is recorded, and the request keeps the to-do's id.
"""

from claims.models import Reconsideration

# workbench.models.TeamMember.Role.SUPERVISOR's stored value, for lookups through
# ``claim_team_memberships`` (the supervisors of a claim's team).
TEAM_SUPERVISOR = "supervisor"


def todo_model():
    """workbench.models.ToDo, by the name of the foreign key that points to it."""
    return Reconsideration._meta.get_field("task").related_model


def create_supervisor_todo(claim, *, kind: str, subject: str, due_on, owner, note: str):
    return todo_model().objects.create(claim=claim, kind=kind, subject=subject, due_on=due_on,
                                       owner=owner, note=note)


def is_open(todo) -> bool:
    return todo.status == todo_model().Status.OPEN


def close_todo_done(todo_id, *, user, at) -> None:
    """The decision on the request closes its to-do (if still open)."""
    model = todo_model()
    model.objects.filter(pk=todo_id, status=model.Status.OPEN).update(
        status=model.Status.DONE, closed_by=user, closed_at=at)
