"""The certificate set generated for one test run.

Every key and certificate is created fresh in the run's temporary folder, so no private key is
ever committed. Keys are ECDSA P-256 (fast to generate), except one RSA 2048 leaf.
The layout is described in README.md ("Certificates"), and so are the OCSP responses the
stapling endpoints serve ("OCSP stapling").
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from dataclasses import dataclass, field

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509 import ocsp
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CLIENT_PKCS12_PASSWORD = "gannet"

_DAY = datetime.timedelta(days=1)


@dataclass
class Issued:
    """A certificate and its key, plus the chain a server presents after it (issuers, leaf excluded)."""

    name: str
    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey
    presented_issuers: list[x509.Certificate] = field(default_factory=list)


def _name(common_name: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Gannet Test Suite"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )


def _new_key(use_rsa: bool = False) -> ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey:
    if use_rsa:
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return ec.generate_private_key(ec.SECP256R1())


def _build(
    subject: str,
    key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey,
    issuer: Issued | None,
    *,
    ca: bool,
    path_length: int | None = None,
    sans: list[x509.GeneralName] | None = None,
    not_before: datetime.datetime | None = None,
    not_after: datetime.datetime | None = None,
    client: bool = False,
) -> x509.Certificate:
    """Signs a certificate for `subject`; self-signed when `issuer` is None."""
    now = datetime.datetime.now(datetime.timezone.utc)
    issuer_name = issuer.cert.subject if issuer else _name(subject)
    signing_key = issuer.key if issuer else key
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before or now - _DAY)
        .not_valid_after(not_after or now + 30 * _DAY)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=path_length if ca else None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )
    if issuer:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.key.public_key()), critical=False
        )
    if ca:
        usage = x509.KeyUsage(
            digital_signature=True, content_commitment=False, key_encipherment=False,
            data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
            encipher_only=False, decipher_only=False,
        )
    else:
        # A leaf: no keyCertSign, so a certificate it signs must be rejected (SECURITY-CASES 6).
        usage = x509.KeyUsage(
            digital_signature=True, content_commitment=False,
            key_encipherment=isinstance(key, rsa.RSAPrivateKey),  # TLS 1.2 RSA key exchange
            data_encipherment=False, key_agreement=False, key_cert_sign=False, crl_sign=False,
            encipher_only=False, decipher_only=False,
        )
        eku = ExtendedKeyUsageOID.CLIENT_AUTH if client else ExtendedKeyUsageOID.SERVER_AUTH
        builder = builder.add_extension(x509.ExtendedKeyUsage([eku]), critical=False)
    builder = builder.add_extension(usage, critical=True)
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    return builder.sign(signing_key, hashes.SHA256())


def _dns(*names: str) -> list[x509.GeneralName]:
    return [x509.DNSName(n) for n in names]


def _ip(address: str) -> x509.GeneralName:
    return x509.IPAddress(ipaddress.ip_address(address))


def _ca(name: str, subject: str, issuer: Issued | None, path_length: int | None = None) -> Issued:
    key = _new_key()
    return Issued(name, _build(subject, key, issuer, ca=True, path_length=path_length), key)


def _leaf(name: str, issuer: Issued | None, chain: list[Issued], use_rsa: bool = False, **options) -> Issued:
    key = _new_key(use_rsa)
    subject = options.pop("subject", "localhost")
    cert = _build(subject, key, issuer, ca=False, **options)
    return Issued(name, cert, key, [c.cert for c in chain])


def generate(directory: str) -> dict:
    """Writes the whole certificate set under `directory` and returns the JSON description of it."""
    os.makedirs(directory, exist_ok=True)
    now = datetime.datetime.now(datetime.timezone.utc)
    localhost = _dns("localhost") + [_ip("127.0.0.1")]

    root = _ca("root-ca", "Gannet Test Root CA", None)
    intermediate = _ca("intermediate-ca", "Gannet Test Intermediate CA", root, path_length=0)
    untrusted_root = _ca("untrusted-root-ca", "Gannet Untrusted Root CA", None)
    client_ca = _ca("client-ca", "Gannet Test Client CA", None)

    # pathlen:0 on `intermediate` forbids a further CA under it; this sub-CA breaks that limit.
    over_limit_ca = _ca("path-length-ca", "Gannet Test CA Beyond Path Length", intermediate)
    # Signed by the root directly so that the missing CA flag is the only fault in its chain.
    not_a_ca = _leaf("leaf-as-issuer-signer", root, [], subject="Gannet Test Leaf Signer",
                     sans=_dns("signer.gannet.test"))

    leaves = {
        "good": _leaf("good", intermediate, [intermediate], sans=localhost),
        "wrongHost": _leaf("wrong-host", intermediate, [intermediate], subject="wrong.example",
                           sans=_dns("wrong.example")),
        "expired": _leaf("expired", intermediate, [intermediate], sans=localhost,
                         not_before=now - 60 * _DAY, not_after=now - _DAY),
        "notYetValid": _leaf("not-yet-valid", intermediate, [intermediate], sans=localhost,
                             not_before=now + 30 * _DAY, not_after=now + 60 * _DAY),
        "ipAddress": _leaf("ip-address", intermediate, [intermediate], subject="127.0.0.1", sans=[_ip("127.0.0.1")]),
        # curl resolves every *.localhost name to loopback, so the wildcard is reachable as
        # https://www.gannet.localhost:PORT/; *.gannet.test is there for evaluator unit tests.
        "wildcard": _leaf("wildcard", intermediate, [intermediate], subject="*.gannet.localhost",
                          sans=_dns("*.gannet.localhost", "*.gannet.test")),
        # RSA, for pinning and SPKI code that must not assume EC keys.
        "rsa": _leaf("rsa", intermediate, [intermediate], use_rsa=True, sans=localhost),
        "selfSigned": _leaf("self-signed", None, [], sans=localhost),
        "untrustedRoot": _leaf("untrusted-root", untrusted_root, [], sans=localhost),
        "leafAsIssuer": _leaf("leaf-as-issuer", not_a_ca, [not_a_ca], sans=localhost),
        "pathLengthExceeded": _leaf("path-length-exceeded", over_limit_ca, [over_limit_ca, intermediate],
                                    sans=localhost),
        # A valid chain whose leaf the intermediate's OCSP response declares revoked.
        "revoked": _leaf("revoked", intermediate, [intermediate], sans=localhost),
        # A valid leaf for localhost whose common name carries terminal escapes: OSC 0 (retitle
        # the window) ended by BEL, CSI 2J (clear the screen), a C1 CSI and a bidi override.
        "hostileSubject": _leaf("hostile-subject", intermediate, [intermediate], sans=localhost,
                                subject="evil\x1b]0;pwned\x07\x1b[2J\u009b31m\u202ename"),
    }
    client = _leaf("client", client_ca, [], subject="Gannet Test Client", client=True)

    described: dict = {
        "rootCA": _write(directory, root, with_chain=False),
        "intermediateCA": _write(directory, intermediate, with_chain=False),
        "untrustedRootCA": _write(directory, untrusted_root, with_chain=False),
        "clientCA": _write(directory, client_ca, with_chain=False),
        "pathLengthCA": _write(directory, over_limit_ca, with_chain=False),
        "leafSigner": _write(directory, not_a_ca, with_chain=False),
        "leaves": {variant: _write(directory, leaf, with_chain=True) for variant, leaf in leaves.items()},
        "client": _write(directory, client, with_chain=False),
    }
    # What the stapling endpoints staple: NAME.ocsp.der beside NAME.der (GannetTestSupport finds
    # them by that name).
    described["leaves"]["good"]["ocsp"] = _write_ocsp(directory, leaves["good"], intermediate, revoked_at=None)
    described["leaves"]["revoked"]["ocsp"] = _write_ocsp(directory, leaves["revoked"], intermediate,
                                                        revoked_at=now - _DAY)

    bundle = os.path.join(directory, "ca-bundle.pem")
    with open(bundle, "wb") as f:
        f.write(root.cert.public_bytes(serialization.Encoding.PEM))
    described["caBundle"] = bundle

    p12 = os.path.join(directory, "client.p12")
    with open(p12, "wb") as f:
        f.write(
            pkcs12.serialize_key_and_certificates(
                b"gannet-client", client.key, client.cert, [client_ca.cert],
                serialization.BestAvailableEncryption(CLIENT_PKCS12_PASSWORD.encode()),
            )
        )
    described["client"]["pkcs12"] = p12
    described["client"]["pkcs12Password"] = CLIENT_PKCS12_PASSWORD
    return described


def _write_ocsp(directory: str, leaf: Issued, issuer: Issued, *, revoked_at: datetime.datetime | None) -> str:
    """Writes NAME.ocsp.der: a DER OCSP response about `leaf`, signed by its issuer itself (no delegated
    responder), current for seven days, "good" or, with `revoked_at`, "revoked" for keyCompromise.

    The CertID uses SHA-1, as OpenSSL's OCSP_cert_to_id and most public responders do.
    """
    now = datetime.datetime.now(datetime.timezone.utc)
    revoked = revoked_at is not None
    single = ocsp.OCSPResponseBuilder().add_response(
        cert=leaf.cert,
        issuer=issuer.cert,
        algorithm=hashes.SHA1(),
        cert_status=ocsp.OCSPCertStatus.REVOKED if revoked else ocsp.OCSPCertStatus.GOOD,
        this_update=now - datetime.timedelta(hours=1),
        next_update=now + 7 * _DAY,
        revocation_time=revoked_at,
        revocation_reason=x509.ReasonFlags.key_compromise if revoked else None,
    )
    response = single.responder_id(ocsp.OCSPResponderEncoding.HASH, issuer.cert).sign(issuer.key, hashes.SHA256())
    path = os.path.join(directory, leaf.name + ".ocsp.der")
    with open(path, "wb") as f:
        f.write(response.public_bytes(serialization.Encoding.DER))
    return path


def _write(directory: str, issued: Issued, *, with_chain: bool) -> dict:
    """Writes NAME.pem, NAME.der, NAME.key.pem (and NAME.chain.pem: leaf then issuers, as nginx wants)."""
    base = os.path.join(directory, issued.name)
    pem = issued.cert.public_bytes(serialization.Encoding.PEM)
    paths = {"pem": base + ".pem", "der": base + ".der", "key": base + ".key.pem"}
    with open(paths["pem"], "wb") as f:
        f.write(pem)
    with open(paths["der"], "wb") as f:
        f.write(issued.cert.public_bytes(serialization.Encoding.DER))
    with open(paths["key"], "wb") as f:
        f.write(
            issued.key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
    if with_chain:
        paths["chain"] = base + ".chain.pem"
        with open(paths["chain"], "wb") as f:
            f.write(pem)
            for issuer in issued.presented_issuers:
                f.write(issuer.public_bytes(serialization.Encoding.PEM))
    return paths
