"""A test token issuer: an EC P-256 and an RSA key made with
``cryptography``, its JWKS served over a real socket (a local HTTP server
on a free port, counting fetches), and tokens signed with PyJWT."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

ISSUER = "https://issuer.example.test"
PUBLIC_URL = "https://mcp.example.test/mcp"


class Issuer:
    """Signs tokens for ``PUBLIC_URL`` by default (``sub`` alice, 5 min)."""

    def __init__(self) -> None:
        self.ec = ec.generate_private_key(ec.SECP256R1())
        self.rsa = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.other_ec = ec.generate_private_key(ec.SECP256R1())
        self.fetches = 0
        self.url = ""
        """The issuer's own URL once served (its metadata is there)."""
        self.jwks_url = ""

    def jwks(self) -> dict[str, Any]:
        ec_jwk = json.loads(ECAlgorithm.to_jwk(self.ec.public_key()))
        rsa_jwk = json.loads(RSAAlgorithm.to_jwk(self.rsa.public_key()))
        ec_jwk.update(kid="ec-1", use="sig", alg="ES256")
        rsa_jwk.update(kid="rsa-1", use="sig", alg="RS256")
        return {"keys": [ec_jwk, rsa_jwk]}

    def claims(self, **changes: Any) -> dict[str, Any]:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": ISSUER,
            "aud": PUBLIC_URL,
            "sub": "alice",
            "iat": now,
            "exp": now + 300,
            "scope": "vectors.read accounts.merge accounts.write",
        }
        claims.update(changes)
        return {k: v for k, v in claims.items() if v is not None}

    def token(
        self, alg: str = "ES256", kid: str | None = None, key: Any = None, **claims: Any
    ) -> str:
        """A token (claims given as ``None`` are left out)."""
        if key is None:
            key = self.rsa if alg == "RS256" else self.ec
        kid = kid or ("rsa-1" if alg == "RS256" else "ec-1")
        return jwt.encode(self.claims(**claims), key, algorithm=alg, headers={"kid": kid})

    @contextmanager
    def serving(self) -> Iterator[Issuer]:
        """The JWKS on ``http://127.0.0.1:<free port>/jwks.json``, and the
        issuer metadata naming it under ``/.well-known/``."""
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path.startswith("/.well-known/"):
                    # The issuer's metadata (RFC 8414), naming the key set.
                    body = json.dumps({"issuer": issuer.url, "jwks_uri": issuer.jwks_url}).encode()
                else:
                    issuer.fetches += 1
                    body = json.dumps(issuer.jwks()).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        self.jwks_url = f"{self.url}/jwks.json"
        try:
            yield self
        finally:
            server.shutdown()
            server.server_close()
