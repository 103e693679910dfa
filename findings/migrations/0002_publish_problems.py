"""Publish the three unsolved problems the program has named (seed: "what a design partner
would be asked to do"). The slugs are the ones jobs.spec.issues.Problem uses to say which
problem a precision issue is evidence for; keep them in step."""

from django.db import migrations

PROBLEMS = [
    {
        "slug": "knowing-what-a-job-must-declare",
        "title": "Knowing what a job must declare",
        "order": 10,
        "summary": (
            "What a batch job has to say about its work, data, request and output before the "
            "network can run it well — and where the gap between roughly and exactly lies."
        ),
        "body": """\
A design partner is asked to describe a real job in the form the network uses: **the work**
(what runs — a training run, a batch of inference, a processing pass over footage, a set of
simulations), **the data** (what the job reads and how large it is), **the request** (how much
compute, for how long or until done, and when it must be finished) and **the output** (what
should come back).

Most teams know roughly what they need. The network needs to know exactly, and we do not yet
know the full list of what "exactly" has to cover. Some declarations are clearly needed (sizes
with units, a deadline, an output format). Others only show up when a job meets the network:
what a job does when it is given less compute than it asked for, which size of the data is
meant (compressed in a bucket, or as it lands on disk), or which part of a workload is really
real-time work that does not belong on the network at all.

The gap between roughly and exactly is where we expect to learn what a job description is
missing.""",
        "learned": """\
No design partner has run a job on the network yet, so nothing here comes from findings so
far. What the program already holds to:

- A team that cannot yet describe its job this precisely is not a bad team; it is simply not
  a design partner yet.
- Real-time work (serving requests, latency guarantees) is not a network job. The program says
  so rather than stretch the design, and a partner who reroutes that part to their own systems
  is more useful than one who argues for an exception.""",
    },
    {
        "slug": "getting-data-to-compute",
        "title": "Getting data to compute",
        "order": 20,
        "summary": (
            "Moving a job's data to where the accelerators are, fast enough that staging does "
            "not cost more time than the job itself."
        ),
        "body": """\
Heavy, bursty jobs read a lot of data: footage backlogs, training sets, simulation inputs.
Before a job can run, that data has to reach the accelerators the network holds for it, and
the time spent staging is time those accelerators are held and not yet working.

We do not yet know how to make staging predictable across the places partners keep their data
(object storage in another region, on-premises storage behind a VPN, a colleague's cluster),
nor how much of it the network should do ahead of the rent rather than after it. A design
partner's real staging — its size, its source and how long it took next to how long the job
ran — is the evidence we need.""",
        "learned": """\
No design partner has run a job on the network yet, so nothing here comes from findings so
far. Partners will be asked to say what their data staging actually looks like, and to report
where staging was slower than the job: those findings are the input to this problem.""",
    },
    {
        "slug": "scheduling-mixed-sizes",
        "title": "Scheduling mixed sizes",
        "order": 30,
        "summary": (
            "Fitting jobs of very different sizes — a few accelerators for hours, hundreds for "
            "days — onto the same network without starving either."
        ),
        "body": """\
The network is for teams whose demand spikes: a retraining, a footage backlog, a simulation
sweep. Those spikes come in very different sizes, and they do not arrive politely one after
another. A team whose demand is flat or small would not exercise the queue, so this is a
problem only real partners with real spikes can help with.

We have not solved how to schedule large and small jobs together: when a large job should
wait for the accelerators it needs, when small jobs may use the gaps, how preemption and
requeueing should treat each, and how a job's own declaration (its deadline, what it does with
less compute) should shape where it goes.""",
        "learned": """\
No design partner has run a job on the network yet, so nothing here comes from findings so
far. The program is looking for teams with heavy, bursty jobs precisely because flat or small
demand would not exercise the queue, the scheduling or the release step in the ways it needs
to see.""",
    },
]


def publish(apps, schema_editor):
    UnsolvedProblem = apps.get_model("findings", "UnsolvedProblem")
    for problem in PROBLEMS:
        UnsolvedProblem.objects.update_or_create(
            slug=problem["slug"],
            defaults={**problem, "status": "open", "published": True},
        )


def unpublish(apps, schema_editor):
    UnsolvedProblem = apps.get_model("findings", "UnsolvedProblem")
    UnsolvedProblem.objects.filter(slug__in=[p["slug"] for p in PROBLEMS]).delete()


class Migration(migrations.Migration):
    dependencies = [("findings", "0001_initial")]

    operations = [migrations.RunPython(publish, unpublish)]
