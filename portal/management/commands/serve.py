import os
import signal
import subprocess
import sys
import time

from django.core.management.base import BaseCommand

from portal.demo import DEMO_PASSWORD, DEMO_USERS


class Command(BaseCommand):
    help = (
        "Run the web server (gunicorn) and a Celery worker with beat together; Ctrl-C stops both."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--web-workers", type=int, default=2)

    def handle(self, *args, port, host, web_workers, **options):
        from django.conf import settings

        bin_dir = os.path.dirname(sys.executable)
        var = settings.VAR_DIR
        os.makedirs(var / "celery", exist_ok=True)
        commands = {
            "web": [
                os.path.join(bin_dir, "gunicorn"),
                "portal.wsgi",
                "--bind",
                f"{host}:{port}",
                "--workers",
                str(web_workers),
                "--access-logfile",
                "-",
            ],
            "worker": [
                os.path.join(bin_dir, "celery"),
                "-A",
                "portal",
                "worker",
                "--beat",
                "--schedule",
                str(var / "celery" / "beat-schedule"),
                "--concurrency",
                "1",
                "--loglevel",
                "INFO",
            ],
        }
        env = {**os.environ, "SITE_URL": os.environ.get("SITE_URL", f"http://{host}:{port}")}
        children = {name: subprocess.Popen(cmd, env=env) for name, cmd in commands.items()}
        self._banner(host, port)

        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        exit_code = 0
        parent = os.getppid()
        while not stopping:
            if os.getppid() != parent:
                stopping = True  # `make` was killed without Ctrl-C reaching us: don't linger
            for name, child in children.items():
                if child.poll() is not None:
                    self.stderr.write(f"{name} exited with {child.returncode}; stopping the rest.")
                    exit_code = child.returncode or 1
                    stopping = True
            time.sleep(0.5)
        for child in children.values():
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 15
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
        sys.exit(exit_code)

    def _banner(self, host, port):
        lines = [
            "",
            f"  The portal is at http://{host}:{port}/",
            "  Demo logins (password for all: " + DEMO_PASSWORD + "):",
        ]
        for email, _name, is_staff, team, role in DEMO_USERS:
            who = (
                "staff (also the Django admin): sets up a second step at the first login"
                if is_staff
                else f"{role} of {team}"
            )
            lines.append(f"    {email:<26} {who}")
        lines += ["  E-mails are printed by the worker below. Ctrl-C stops everything.", ""]
        self.stdout.write(self.style.SUCCESS("\n".join(lines)))
