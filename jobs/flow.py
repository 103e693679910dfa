"""The guided steps as a flow (as pretalx's cfp/flow): each step knows its parts and fields,
whether it applies to a job, which step comes after it, and how a posted form changes the
draft. The views only find the step and dispatch to it."""

from dataclasses import dataclass

from django.http import Http404

from portal.validators import is_number

from . import services
from .jobformat import model as spec_model
from .steps import PART_SPECS, STEP_PARTS, STEPS, is_group, values_from_post

# Repeated groups (inputs, artifacts, accelerators) stop growing here: the format's lists
# are bounded too, and a page with hundreds of empty groups helps nobody.
MAX_GROUP_ITEMS = spec_model.MAX_ITEMS


@dataclass(frozen=True)
class Step:
    name: str
    title: str
    intro: str
    parts: tuple[str, ...]

    @property
    def is_review(self):
        return not self.parts

    def applies(self, job):
        """Every step applies to every job today; a step that depends on earlier answers
        says so here, and the flow skips it."""
        return True

    def field_specs(self):
        return [spec for part in self.parts for spec in PART_SPECS[part]]

    def next(self, job):
        return _neighbour(self, job, +1)

    def previous(self, job):
        return _neighbour(self, job, -1)

    def target(self, job, action):
        """The step a full-page post goes to: previous, a named step, this one, or the next."""
        if action == "previous":
            return self.previous(job) or self
        if action.startswith("goto:") and (named := FLOW.get(action[5:])) is not None:
            return named
        if action == "save":
            return self
        return self.next(job) or self

    def values(self, post):
        """The parts of the description this step's form posted, as the draft stores them."""
        return values_from_post(post, list(self.parts))

    def owns_group(self, action):
        verb, _, path = action.partition(":")
        bits = path.split(".")
        return (
            verb in ("add", "remove")
            and len(bits) >= 2
            and bits[0] in self.parts
            and is_group(bits[0], bits[1])
        )

    def add_or_remove(self, *, job, user, action):
        """Add an empty item to a repeated group, or remove one ('remove:data.inputs.2')."""
        if not self.owns_group(action):
            return job
        verb, _, path = action.partition(":")
        bits = path.split(".")
        part_data = job.data.get(bits[0])
        part_data = dict(part_data) if isinstance(part_data, dict) else {}
        items = part_data.get(bits[1])
        items = list(items) if isinstance(items, list) else []
        if verb == "add" and len(items) < MAX_GROUP_ITEMS:
            items.append({})
        elif (
            verb == "remove" and len(bits) == 3 and is_number(bits[2]) and int(bits[2]) < len(items)
        ):
            items.pop(int(bits[2]))
        part_data[bits[1]] = items
        return services.save_draft(
            job=job, user=user, parts={bits[0]: part_data}, version=job.version
        )

    def focus_after(self, job, action):
        """Where keyboard focus goes after an in-place add or remove: the new item's first
        field, or the group's Add button. site.js focuses the element marked data-focus-after-swap."""
        verb, _, path = action.partition(":")
        bits = path.split(".")
        if verb == "add" and len(bits) == 2:
            items = (job.data.get(bits[0]) or {}).get(bits[1]) or []
            first = next((s for s in PART_SPECS[bits[0]] if s.name == bits[1]), None)
            if items and first and first.children:
                return f"{path}.{len(items) - 1}.{first.children[0].name}"
        if verb == "remove" and len(bits) >= 2:
            return "add:" + ".".join(bits[:2])
        return ""

    @staticmethod
    def group_anchor(action):
        path = action.partition(":")[2].split(".")
        return "f-" + "-".join(path[:2]).replace("_", "-")


class Flow:
    def __init__(self, steps):
        self.steps = tuple(steps)
        self._by_name = {s.name: s for s in self.steps}

    def __iter__(self):
        return iter(self.steps)

    def get(self, name):
        return self._by_name.get(name)

    def get_or_404(self, name, *, editing=False):
        step = self.get(name)
        if step is None or (editing and step.is_review):
            raise Http404("No such step.")
        return step

    def index(self, step):
        return self.steps.index(step)


def _neighbour(step, job, direction):
    steps = FLOW.steps
    i = steps.index(step) + direction
    while 0 <= i < len(steps):
        if steps[i].applies(job):
            return steps[i]
        i += direction
    return None


FLOW = Flow(
    Step(name, title, intro, tuple(STEP_PARTS.get(name, ()))) for name, title, intro in STEPS
)
