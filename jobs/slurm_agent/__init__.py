"""The Slurm agent: runs on a cluster's login node, needs only Python's standard library,
the portal's URL and a cluster token.

It pulls the jobs dispatched to its cluster, submits them with `sbatch --parsable`, watches
them through Slurm's own accounting (`sacct`; on a cluster without slurmdbd through the
controller, `squeue` and `scontrol`, its figures then marked estimated) and posts lifecycle events and holds through
the public scheduler API, with idempotency keys made of the Slurm job id, the attempt and
the state, so a repeated or reordered post changes nothing.

    python -m jobs.slurm_agent --url https://partners.example --token-file ~/.e31-token
    python manage.py slurm_agent --url … --token …      # the same, from the portal's checkout

Nothing here imports Django or the portal: copy this folder to a login node and run
`python3 -m slurm_agent` there."""

# Sent as the User-Agent (e31-slurm-agent/<VERSION>) and with each partition report (the
# clusters page shows it), printed by --version. 2: the version in the report; 3: runs on a
# cluster without accounting (--accounting).
VERSION = "3"
