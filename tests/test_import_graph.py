"""The house's import graph has no circle. The layers (which app or part of claims may
import which) are import-linter's contracts in pyproject.toml, checked by `lint-imports`
in `make check` and CI; a circle inside one layer is this test's to find."""

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
# Every package at the top of the repository but the tests: a new app is in the graph
# the day it is made (the list written by hand here missed five of them).
PACKAGES = tuple(sorted(path.parent.name for path in ROOT.glob("*/__init__.py")
                        if path.parent.name != "tests"))


def circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    order, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module):
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for imported in imports[module]:
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in imports:
        if module not in order:
            visit(module)
    return found


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_holds_every_app():
    assert {"claims", "decisions", "ledger", "localdev", "payouts", "privacy",
            "workbench"} <= set(PACKAGES)


def test_no_module_of_the_house_imports_itself_back():
    graph = grimp.build_graph(*PACKAGES)
    # Migrations are frozen history: they import what they need as it was.
    modules = {m for m in graph.modules if ".migrations" not in m}
    imports = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}

    assert circles(imports) == []
