"""A second step at login: a code from an authenticator app (TOTP), a passkey (WebAuthn,
passkeys.py) or a one-time recovery code, through django-otp's devices. Required of staff, who
can read every team's data; a partner may turn it on. Whether this session has passed the step
is kept in the session itself (the server-side session row), so a page costs no query to check
it."""
