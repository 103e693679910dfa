"""The staff clusters page: the token and the command to paste, shown once; replacing a
token; what each agent last said; an empty form explained."""

import re
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from jobs import jobformat
from jobs.demo import small_slurm_job
from jobs.jobformat import slurm_export
from jobs.runs import dispatch as dispatch_mod
from jobs.runs.models import Cluster, SchedulerClient
from jobs.runs.services import client_for_token
from jobs.runs.views import agent_commands
from jobs.slurm_agent import VERSION
from jobs.slurm_agent.cli import parser
from jobs.slurm_agent.portal import Portal

pytestmark = pytest.mark.django_db

URL = "/staff/clusters/"


@override_settings(SITE_URL="https://partners.example")
def test_registering_shows_the_command_to_paste_once(client_for, staff):
    client = client_for(staff)
    page = client.post(URL, {"name": "hpc", "partition": "gpu", "accelerator_map": ""})
    assert page.status_code == 200
    token = page.context["token"]
    assert token.startswith("e31s_")
    html = page.content.decode()
    command = (
        f"python3 e31-slurm-agent.pyz --url https://partners.example --token {token}"
        " --workdir ~/e31-agent"
    )
    assert f'<pre class="agent-command" tabindex="0" id="agent-run">{command}</pre>' in html
    assert (
        "*/5 * * * * python3 $HOME/e31-slurm-agent.pyz --url https://partners.example"
        f" --token {token} --workdir ~/e31-agent --once</pre>"
    ) in html
    assert "<script" not in html.split("<main", 1)[-1]  # strict CSP: no inline script
    again = client.get(URL).content.decode()
    assert token not in again and "agent-command" not in again


def test_the_pasted_flags_are_the_agents_own():
    for line in agent_commands("e31s_x").values():
        args = line.split("e31-slurm-agent.pyz ", 1)[1].split()
        options = parser().parse_args(args)
        assert options.url and options.token == "e31s_x" and options.workdir


def test_replace_token_shows_a_new_one_and_the_old_one_stops_working(client_for, staff):
    cluster, old = dispatch_mod.create_cluster(name="hpc", partition="gpu", accelerator_map={})
    assert client_for_token(old) is not None
    page = client_for(staff).post(URL, {"action": "replace_token", "cluster": cluster.pk})
    assert page.status_code == 200
    new = page.context["token"]
    assert new != old and new in page.content.decode()
    assert "the old one no longer works" in page.content.decode()
    assert client_for_token(old) is None
    assert client_for_token(new).pk == cluster.client_id


@pytest.mark.parametrize("value", ["999999", "9" * 40, "abc", "1.5", "²", ""])
def test_replace_token_of_an_unknown_cluster_is_404(client_for, staff, value):
    page = client_for(staff).post(URL, {"action": "replace_token", "cluster": value})
    assert page.status_code == 404


@pytest.mark.parametrize("who", ["a_member", "b_member"])
def test_partners_cannot_replace_a_token(request, client_for, who):
    cluster, old = dispatch_mod.create_cluster(name="hpc", partition="gpu", accelerator_map={})
    user = request.getfixturevalue(who)
    page = client_for(user).post(URL, {"action": "replace_token", "cluster": cluster.pk})
    assert page.status_code in (403, 404)
    assert client_for_token(old) is not None


def test_an_empty_form_answers_400_with_the_field_message(client_for, staff):
    page = client_for(staff).post(URL, {})
    assert page.status_code == 400
    html = page.content.decode()
    assert "Give the cluster a name." in html
    assert 'id="cluster-name-error"' in html


def test_each_cluster_shows_its_report_and_whether_its_agent_is_alive(client_for, staff):
    alive, _ = dispatch_mod.create_cluster(name="alive-one", partition="gpu", accelerator_map={})
    silent, _ = dispatch_mod.create_cluster(name="silent-one", partition="gpu", accelerator_map={})
    dispatch_mod.create_cluster(name="never-one", partition="gpu", accelerator_map={})
    dispatch_mod.report_partition(cluster=alive, nodes=2, cpus_per_node=64,
                                  memory_per_node_mb=512000, gres_per_node={"gpu:h100": 8},
                                  max_time_seconds=7200)  # fmt: skip
    now = timezone.now()
    SchedulerClient.objects.filter(pk=alive.client_id).update(last_used_at=now)
    SchedulerClient.objects.filter(pk=silent.client_id).update(
        last_used_at=now - timedelta(hours=3)
    )
    page = client_for(staff).get(URL)
    rows = {c.name: c for c in page.context["clusters"]}
    assert rows["alive-one"].agent_alive and not rows["silent-one"].agent_alive
    html = page.content.decode()
    assert "2 nodes, 64 CPUs, 512000 MB, 8 × gpu:h100 per node" in html
    assert ">alive</span>" in html and ">silent</span>" in html and "never called" in html
    assert html.count("Replace token") >= 3


PARTITION = {"nodes": 1, "cpus_per_node": 16, "memory_per_node_mb": 16000,
             "gres_per_node": {"gpu:h100": 8}, "max_time_seconds": 7200}  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_the_agent_sends_its_version_with_each_report_and_the_page_shows_it(
    live_server, client_for, staff
):
    cluster, token = dispatch_mod.create_cluster(name="hpc", partition="gpu", accelerator_map={})
    # The agent's own HTTP client, against a served portal, as on a login node.
    Portal(live_server.url, token).partition(PARTITION)
    cluster.refresh_from_db()
    assert cluster.agent_version == VERSION and cluster.reported_at
    html = client_for(staff).get(URL).content.decode()
    assert f"Agent version {VERSION}" in html


def test_an_agent_older_than_the_version_field_is_read_from_its_user_agent(
    client_for, client, staff
):
    cluster, token = dispatch_mod.create_cluster(name="hpc", partition="gpu", accelerator_map={})
    url = "/api/v1/scheduler/cluster/partition"
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    old = client.put(url, PARTITION, content_type="application/json",
                     HTTP_USER_AGENT="e31-slurm-agent/1", **auth)  # fmt: skip
    assert old.status_code == 200
    cluster.refresh_from_db()
    assert cluster.agent_version == "1"
    assert re.search(r"Agent version 1\s", client_for(staff).get(URL).content.decode())
    # Anything else in the header is not a version: nothing is stored, the page says so.
    client.put(url, PARTITION, content_type="application/json",
               HTTP_USER_AGENT="curl/8 <script>", **auth)  # fmt: skip
    cluster.refresh_from_db()
    assert cluster.agent_version == ""
    assert "Agent version not said" in client_for(staff).get(URL).content.decode()
    hostile = client.put(url, {**PARTITION, "agent_version": "2\n<b>"},
                         content_type="application/json", **auth)  # fmt: skip
    assert hostile.status_code == 422


def test_an_account_and_qos_registered_with_the_cluster_go_into_its_scripts(client_for, staff):
    client = client_for(staff)
    fields = {"name": "hpc", "partition": "gpu", "accelerator_map": "H100-80GB -> gpu:h100"}
    refused = client.post(URL, {**fields, "account": "proj 7", "qos": "long"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="cluster-account-error" role="alert"><p>The Slurm account is one Slurm name' in html
    assert 'value="proj 7"' in html and 'value="hpc"' in html  # nothing typed is lost
    assert not Cluster.objects.exists()

    assert client.post(URL, {**fields, "account": "proj-7", "qos": "long"}).status_code == 200
    cluster = Cluster.objects.get()
    assert "account <code>proj-7</code>" in client.get(URL).content.decode()
    description, _ = jobformat.load(small_slurm_job("with-account"))
    run = slurm_export.export(description, dispatch_mod.site_for(cluster)).script("run").text
    assert "#SBATCH --account=proj-7\n#SBATCH --qos=long\n" in run
