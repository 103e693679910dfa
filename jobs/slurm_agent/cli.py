"""Command line: python -m jobs.slurm_agent --url URL (--token T | --token-file F).

Built into one file by `make agent` (var/e31-slurm-agent.pyz): `python3 e31-slurm-agent.pyz
example-config` and `systemd-unit` print the files an operator installs (deploy/)."""

import argparse
import importlib.resources
import logging
import os
import signal
import sys
import urllib.parse
from pathlib import Path

from . import VERSION
from .agent import Agent
from .portal import Portal, PortalDown, PortalRefused
from .slurm import Slurm, SlurmError

# Files an operator installs, printed by `<agent> example-config` and `<agent> systemd-unit`.
DEPLOY_FILES = {
    "example-config": "agent.example.conf",
    "systemd-unit": "e31-slurm-agent.service",
}


def deploy_file(command):
    """The text of a file in deploy/ (works from the checkout and from inside the .pyz)."""
    package = __package__ or "slurm_agent"
    return (importlib.resources.files(package) / "deploy" / DEPLOY_FILES[command]).read_text()


class Parser(argparse.ArgumentParser):
    def error(self, message):
        # One line, as the agent's other errors: cron mails it, an operator greps the journal.
        self.exit(2, f"error: {message} (see --help)\n")


def portal_url(text):
    """The portal's address, checked before anything is sent to it."""
    try:
        parts = urllib.parse.urlsplit(text.strip())
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        parts, port_ok = None, False
    if not (parts and port_ok and parts.scheme in ("http", "https") and parts.hostname):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a web address: give the portal's, e.g. https://partners.example"
        )
    return text.strip()


def seconds(text):
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0, e.g. 5")
    return value


def parser():
    p = Parser(
        prog="slurm_agent",
        description="Submit the jobs dispatched to this cluster and report them to the portal.",
        epilog="`example-config` or `systemd-unit` as the only argument prints that file "
        "(for /etc or ~/.config and systemd); --once suits cron.",
    )
    p.add_argument(
        "--url", required=True, type=portal_url, help="The portal, e.g. https://partners.example"
    )
    p.add_argument("--token", default=os.environ.get("E31_AGENT_TOKEN", ""),
                   help="The cluster's token (or E31_AGENT_TOKEN, or --token-file).")  # fmt: skip
    p.add_argument("--token-file", help="A file holding the token (keeps it out of `ps`).")
    p.add_argument("--partition", default="", help="Slurm partition (default: the cluster's).")
    p.add_argument("--interval", type=seconds, default=5.0, help="Seconds between polls (5).")
    p.add_argument("--workdir", default=os.path.expanduser("~/e31-agent"),
                   help="Where the jobs' output files go (~/e31-agent).")  # fmt: skip
    p.add_argument(
        "--accounting",
        choices=("auto", "none"),
        # Empty (a settings file from before the option) is auto.
        type=lambda value: value or "auto",
        default=os.environ.get("E31_AGENT_ACCOUNTING") or "auto",
        help="auto: read sacct, or squeue and scontrol if the cluster keeps no accounting; "
        "none: a cluster without slurmdbd (figures are then estimated). Or E31_AGENT_ACCOUNTING.",
    )
    p.add_argument("--once", action="store_true", help="Poll once and exit (cron, tests).")
    p.add_argument("--debug", action="store_true", help="Log every request.")
    p.add_argument("--version", action="version", version=f"e31-slurm-agent {VERSION}")
    return p


def add_arguments(p):
    """The same options on another parser (the portal's management command)."""
    for action in parser()._actions:
        if action.dest not in ("help", "version"):  # the command has its own
            p._add_action(action)


def run(options):
    logging.basicConfig(
        level=logging.DEBUG if options.debug else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    token = options.token
    if options.token_file:
        try:
            token = Path(options.token_file).read_text().strip()
        except (OSError, UnicodeDecodeError) as error:
            print(f"error: cannot read --token-file {options.token_file}: {_why(error)}",
                  file=sys.stderr)  # fmt: skip
            return 2
    if not token:
        print("error: give --token, --token-file or E31_AGENT_TOKEN", file=sys.stderr)
        return 2
    try:
        Path(options.workdir).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"error: cannot create --workdir {options.workdir}: {_why(error)}", file=sys.stderr)
        return 2
    agent = Agent(
        Portal(options.url, token),
        Slurm(
            partition=options.partition,
            workdir=options.workdir,
            accounting=options.accounting,
        ),
        interval=options.interval,
    )

    def stop(*_):
        agent.stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if options.once:
        try:
            agent.poll_once()
        except PortalDown as error:
            print(f"error: cannot reach the portal at {options.url}: {error}", file=sys.stderr)
            return 1
        except PortalRefused as error:
            if error.status in (401, 403):
                print(f"error: the portal refused the token ({error})", file=sys.stderr)
            else:
                print(f"error: the portal refused a request ({error})", file=sys.stderr)
            return 1
        except SlurmError as error:
            print(f"error: Slurm: {error}", file=sys.stderr)
            return 1
    else:
        logging.getLogger("e31.slurm_agent").info(
            "polling %s every %s s", options.url, options.interval
        )
        agent.run_forever()
    return 1 if agent.refused_token else 0


def _why(error):
    """An OS error's own words without its errno prefix: "No such file or directory"."""
    return getattr(error, "strerror", None) or str(error)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if len(argv) == 1 and argv[0] in DEPLOY_FILES:
        sys.stdout.write(deploy_file(argv[0]))
        return 0
    return run(parser().parse_args(argv))
