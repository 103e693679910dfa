from dataclasses import asdict, dataclass
from enum import StrEnum


class Level(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Problem(StrEnum):
    """The program's published unsolved problems that precision issues are evidence for."""

    DECLARE = "knowing-what-a-job-must-declare"
    DATA = "getting-data-to-compute"
    SCHEDULING = "scheduling-mixed-sizes"


@dataclass(frozen=True)
class Issue:
    field: str
    level: Level
    code: str
    message: str
    problem: Problem = Problem.DECLARE

    def as_dict(self):
        data = asdict(self)
        data["level"] = str(self.level)
        data["problem"] = str(self.problem)
        return data

    @property
    def part(self):
        return self.field.split(".", 1)[0] if self.field else ""
