"""A Redis outage does not end the Celery worker (issue 32, found by `manage.py faults`). When
the connection drops, the worker collects the connection, then closes it; closing the channel
with messages still unacknowledged must end as a connection error the worker reconnects from,
not as an AttributeError it dies of. Each test runs its own Redis and stops it."""

import shutil
import socket
import subprocess
import time

import pytest
import redis as redis_client
from kombu import Connection
from kombu.common import ignore_errors
from kombu.transport import redis as kombu_redis

from portal.broker import Transport


@pytest.fixture
def own_redis(tmp_path):
    if not shutil.which("redis-server"):
        pytest.skip("no redis-server on this machine (CI and `make faults` have one)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    for _ in range(100):
        try:
            redis_client.Redis.from_url(url).ping()
            break
        except redis_client.exceptions.ConnectionError:
            time.sleep(0.05)
    yield url, server
    server.kill()
    server.wait()


def the_worker_loses_its_broker(url, server, transport):
    """The state the worker's log showed when it died: Redis gone, the transport already
    detached from the connection (collected), and the channel, holding a message it has not
    acknowledged, being closed (celery's consumer, on_connection_error_after_connected)."""
    connection = Connection(url, transport=transport)
    channel = connection.default_channel
    channel.qos._delivered["in-hand"] = object()
    server.kill()
    server.wait()
    connection.transport.client = None
    ignore_errors(connection, channel.close)


def test_kombus_own_transport_dies_of_it(own_redis):
    # The bug the project's transport is for; when kombu fixes it, this test says so.
    with pytest.raises(AttributeError, match="hostname"):
        the_worker_loses_its_broker(*own_redis, kombu_redis.Transport)


def test_the_projects_transport_lets_the_worker_reconnect(own_redis):
    the_worker_loses_its_broker(*own_redis, Transport)


def test_the_worker_uses_it_on_redis(settings):
    on_redis = settings.CELERY_BROKER_URL.startswith("redis://")
    transport = getattr(settings, "CELERY_BROKER_TRANSPORT", None)
    assert (transport == "portal.broker:Transport") == on_redis
