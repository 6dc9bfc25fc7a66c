"""The pages a problem's ``type`` URL opens (RFC 9457 §3.1.1): what the problem means,
what causes it and what to do, for the developer reading a response. Built from the
registry of problem classes (api_common.problem_types), so each id the service answers
has its page."""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from api_common.problem_types import PROBLEM_TYPES, by_group


@require_safe
def problem_index(request):
    return render(request, "problems/index.html", {"groups": by_group()})


@require_safe
def problem_detail(request, problem_id: str, occurrence=None):
    """``{PROBLEMS_URL}/<id>``; also each response's ``instance`` (``<id>/<uuid>``),
    which opens the same page naming the occurrence to quote to support."""
    problem = PROBLEM_TYPES.get(problem_id)
    if problem is None:
        return render(request, "problems/unknown.html", {"problem_id": problem_id}, status=404)
    return render(request, "problems/detail.html", {"problem": problem, "occurrence": occurrence})
