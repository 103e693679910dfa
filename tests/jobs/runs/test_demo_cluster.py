"""The demo data registers the local test cluster (`make slurm`: e31local, partitions e31 and
e31-low, GRES gpu:h100), so a revision page's "Write the sbatch scripts for" select offers a
cluster out of the box and the scripts it writes are that site's; loading again adds nothing."""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from jobs.models import JobDescription
from jobs.runs.models import Cluster, SchedulerClient
from portal.models import User

pytestmark = pytest.mark.django_db


def test_the_demo_registers_one_cluster_the_sbatch_export_offers(client_for):
    call_command("load_demo", stdout=None)
    call_command("load_demo", stdout=None)  # safe to run again: still one
    cluster = Cluster.objects.get()
    assert (cluster.name, cluster.partition) == ("e31local", "e31")
    assert cluster.accelerator_map == {"H100-80GB": "gpu:h100"}
    assert SchedulerClient.objects.filter(name="e31local").count() == 1
    # No agent has spoken for it yet: dispatch asks staff to start one instead of guessing.
    assert cluster.reported_at is None

    smoke = JobDescription.objects.get(name="slurm-smoke-test")
    partner = User.objects.get(email="ada@northwind.example")
    client = client_for(partner)
    html = client.get(reverse("revision_detail", args=[smoke.pk, 1])).content.decode()
    select = re.search(r'<select name="cluster"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert f'<option value="{cluster.pk}">e31local (partition e31)</option>' in select

    url = reverse("revision_export", args=[smoke.pk, 1, "sbatch"])
    scripts = client.get(url, {"cluster": cluster.pk}).content.decode()
    assert "#SBATCH --partition=e31\n" in scripts
    assert "#SBATCH --gres=gpu:h100:2\n" in scripts
    assert "to set" not in scripts.lower()
