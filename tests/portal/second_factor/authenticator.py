"""A software authenticator for the tests: an ES256 key made with `cryptography`, answering the
options a page hands to the browser as a real authenticator would (attestation "none")."""

import hashlib
import html
import json
import os
import re
from base64 import urlsafe_b64decode, urlsafe_b64encode

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

ORIGIN = "http://localhost:8000"
RP_ID = "localhost"
USER_PRESENT, USER_VERIFIED, CREDENTIAL_INCLUDED = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return urlsafe_b64decode(text + "=" * (-len(text) % 4))


def page_options(response) -> dict:
    """The options a page put in its data-passkey-options attribute."""
    found = re.search(r'data-passkey-options="([^"]*)"', response.content.decode())
    assert found, "the page offers no passkey"
    return json.loads(html.unescape(found.group(1)))


class SoftAuthenticator:
    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(32)
        self.count = 0

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps(
            {
                1: 2,  # EC2
                3: -7,  # ES256
                -1: 1,  # P-256
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def _authenticator_data(self, rp_id, flags, attested=False) -> bytes:
        data = hashlib.sha256(rp_id.encode()).digest() + bytes([flags])
        data += self.count.to_bytes(4, "big")
        if attested:
            data += bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id
            data += self._cose_key()
        return data

    @staticmethod
    def _client_data(kind, challenge, origin) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        ).encode()

    def create(self, options, *, origin=ORIGIN, rp_id=None, challenge=None) -> str:
        """navigator.credentials.create(): the new credential, as passkeys.js sends it."""
        client_data = self._client_data(
            "webauthn.create", challenge or options["challenge"], origin
        )
        flags = USER_PRESENT | USER_VERIFIED | CREDENTIAL_INCLUDED
        attestation = cbor2.dumps(
            {
                "fmt": "none",
                "attStmt": {},
                "authData": self._authenticator_data(rp_id or options["rp"]["id"], flags, True),
            }
        )
        return json.dumps(
            {
                "id": b64(self.credential_id),
                "rawId": b64(self.credential_id),
                "type": "public-key",
                "response": {
                    "clientDataJSON": b64(client_data),
                    "attestationObject": b64(attestation),
                },
                "clientExtensionResults": {},
            }
        )

    def get(self, options, *, origin=ORIGIN, rp_id=None, challenge=None, count=None) -> str:
        """navigator.credentials.get(): an assertion signed with the key, counter raised."""
        self.count = self.count + 1 if count is None else count
        client_data = self._client_data("webauthn.get", challenge or options["challenge"], origin)
        data = self._authenticator_data(rp_id or options["rpId"], USER_PRESENT | USER_VERIFIED)
        signature = self.key.sign(
            data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return json.dumps(
            {
                "id": b64(self.credential_id),
                "rawId": b64(self.credential_id),
                "type": "public-key",
                "response": {
                    "clientDataJSON": b64(client_data),
                    "authenticatorData": b64(data),
                    "signature": b64(signature),
                },
                "clientExtensionResults": {},
            }
        )
