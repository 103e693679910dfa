"""The house's import direction, checked over the source (see README "Architecture"):

    devtools  ->  every app (benchmarks, load, screenshots: development only)
    site wiring  ->  findings  ->  jobs  ->  jobs.runs  ->  jobs' base (models, selectors)  ->  portal core
                     portal.intake  ->  portal core, jobs.jobformat
    jobs.jobformat: a library of its own (no Django, no app)
    jobs.slurm_agent: a program of its own (the standard library only)

Only the site wiring (urls, context processors, admin, load_demo) knows every app, and no
project module is imported from inside a function (a loop hidden at run time)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("portal", "jobs", "findings")
WIRING = {
    "portal.urls",
    "portal.context_processors",
    "portal.admin",
    "portal.management.commands.load_demo",
    "portal.management.commands.recount",
}
# Who may import whom (by component); a component may always import itself.
ALLOWED = {
    "jobs.jobformat": set(),
    # Development only (not installed in production): measures and drives every app.
    "portal.devtools": {
        "portal",
        "portal.intake",
        "jobs",
        "jobs.base",
        "jobs.runs",
        "jobs.jobformat",
        "jobs.slurm_agent",
        "findings",
    },
    "jobs.slurm_agent": set(),
    "portal": set(),
    "portal.intake": {"portal", "jobs.jobformat"},
    "jobs.base": {"portal", "jobs.jobformat"},
    "jobs.runs": {"portal", "jobs.base", "jobs.jobformat"},
    "jobs": {"portal", "jobs.base", "jobs.runs", "jobs.jobformat", "jobs.slurm_agent"},
    "findings": {"portal", "jobs", "jobs.base", "jobs.runs", "jobs.jobformat"},
}
# A sub-package's models live beside its code but register with the app (the app's models
# module imports them), so they belong to the app's base.
JOBS_BASE = {"jobs.models", "jobs.selectors", "jobs.runs.models"}
PORTAL_BASE = {"portal.intake.models"}
# Imports inside a function, each with its reason.
LATE_IMPORTS = {
    "portal.apps",  # AppConfig.ready: the app registry must be loaded first
}


def component(module):
    if module in WIRING:
        return "wiring"
    if module in JOBS_BASE or any(module.startswith(m + ".") for m in JOBS_BASE):
        return "jobs.base"
    if module in PORTAL_BASE or any(module.startswith(m + ".") for m in PORTAL_BASE):
        return "portal"
    for prefix in (
        "jobs.jobformat",
        "jobs.slurm_agent",
        "jobs.runs",
        "portal.intake",
        "portal.devtools",
    ):
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    return module.split(".", 1)[0]


def modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            yield ".".join(parts), path


def imports(module, path):
    """(imported module, line, inside a function?) for each project import."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    nested = {id(child) for f in functions for child in ast.walk(f) if child is not f}
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from jobs import spec` imports jobs.jobformat: name each imported thing in full.
            names = [f"{target}.{a.name}".lstrip(".") for a in node.names]
        for name in names:
            if name.split(".", 1)[0] in APPS:
                yield name, node.lineno, id(node) in nested


def violations():
    for module, path in modules():
        source = component(module)
        for name, line, in_function in imports(module, path):
            target = component(name)
            where = f"{path.relative_to(ROOT)}:{line} imports {name}"
            if in_function and module not in LATE_IMPORTS:
                yield f"{where} inside a function (import it at the top, or fix the loop)"
            if source == "wiring" or target == source:
                continue
            if target == "wiring":
                yield f"{where}: only the site wiring may import the site wiring"
            elif target not in ALLOWED.get(source, set()):
                yield f"{where}: {source} may not depend on {target}"


def test_imports_run_one_way():
    found = list(violations())
    assert not found, "\n".join(found)


def test_jobs_spec_needs_no_django():
    """The format library runs in the CLI and on a login node without Django."""
    for module, path in modules():
        if component(module) != "jobs.jobformat":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                assert not any(n.split(".")[0] == "django" for n in names), f"{path}: {names}"


@pytest.mark.parametrize(
    "module, name, allowed",
    [
        ("portal.models", "jobs.models", False),
        ("jobs.models", "portal.models", True),
        ("portal.intake.forms", "jobs.jobformat.units", True),
        ("portal.intake.forms", "jobs.models", False),
        ("jobs.views", "findings.models", False),
        ("jobs.runs.services", "jobs.services", False),
        ("jobs.services", "jobs.runs.services", True),
        ("portal.urls", "findings.urls", True),
        ("jobs.slurm_agent.agent", "jobs.runs.services", False),
        ("jobs.management.commands.slurm_agent", "jobs.slurm_agent.cli", True),
    ],
)
def test_the_rule_itself_tells_allowed_from_forbidden(module, name, allowed):
    source, target = component(module), component(name)
    ok = source == "wiring" or source == target or target in ALLOWED[source]
    assert ok is allowed
