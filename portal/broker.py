"""kombu's Redis transport, kept alive through a broker outage.

When the connection to Redis drops, the Celery worker first collects the connection (which
detaches the transport from it) and then closes it; closing the channel tries to put the
messages the worker holds unacknowledged back on the queue, needs a new Redis client for
that, and finds the connection's details gone: AttributeError ('NoneType' object has no
attribute 'hostname'), which the worker treats as unrecoverable and exits, so no e-mail
goes out until someone starts it again (issue 32; kombu 5.7). Here that case is the
connection error it is: the worker logs it and reconnects. The messages are not lost: Redis
keeps each unacknowledged one until it is acknowledged, and a worker puts it back on the
queue once the visibility timeout has passed (and the outbox's sweep re-sends e-mails)."""

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection.client is None:
            raise RedisConnectionError("the connection to the broker is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(redis.Transport):
    Channel = Channel
