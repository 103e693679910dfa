"""The published problems first said "nothing here comes from findings so far", which stays
on the page beside "2 findings linked" once partners file. Reword it where staff have not
edited the text; edited texts are left as staff wrote them."""

from django.db import migrations

OLD = (
    "No design partner has run a job on the network yet, so nothing here comes from findings so\n"
    "far."
)
NEW = "What the findings linked here teach us is added as staff triage them."


def reword(apps, schema_editor):
    Problem = apps.get_model("findings", "UnsolvedProblem")
    for problem in Problem.objects.filter(learned__startswith=OLD):
        problem.learned = NEW + problem.learned[len(OLD) :]
        problem.save(update_fields=["learned"])


def back(apps, schema_editor):
    Problem = apps.get_model("findings", "UnsolvedProblem")
    for problem in Problem.objects.filter(learned__startswith=NEW):
        problem.learned = OLD + problem.learned[len(NEW) :]
        problem.save(update_fields=["learned"])


class Migration(migrations.Migration):
    dependencies = [("findings", "0005_triage_indexes_search_problem_counts")]
    operations = [migrations.RunPython(reword, back)]
