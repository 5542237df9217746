public import Foundation

/// AFNetworking's `AFSecurityPolicy` on OpenSSL: validates the server's chain and host name
/// during the TLS handshake, and optionally pins certificates or public keys.
///
/// ```swift
/// var policy = SecurityPolicy(pinningMode: .publicKey,
///                             withPinnedCertificates: SecurityPolicy.certificates(in: .module))
/// var configuration = SessionConfiguration.default
/// configuration.tls.serverTrustEvaluator = policy
/// ```
///
/// The semantics are AFNetworking's (`AFSecurityPolicy.m`), with three hardenings, each a case
/// where AFNetworking would accept a server Gannet refuses:
/// - public keys are matched against the chain OpenSSL built and verified, never against
///   certificates the server merely sent;
/// - with ``allowInvalidCertificates`` in public-key mode the host name is still checked when
///   ``validatesDomainName`` is on (AFNetworking skipped it);
/// - ``allowInvalidCertificates`` forgives an unknown or self-signed root and validity dates,
///   never a bad signature, a leaf used as an issuer or a path length violation.
public struct SecurityPolicy: ServerTrustEvaluating, Sendable {
    /// What, beyond chain and host validation, a server must match.
    public enum PinningMode: Sendable, Hashable {
        /// No pinning: the chain must be trusted by ``SecurityPolicy/trustStore``.
        case none
        /// The verified chain must contain a public key of one of the pinned certificates.
        case publicKey
        /// The pinned certificates are the only trust anchors, and the verified chain must
        /// contain one of them.
        case certificate
    }

    /// The pinning mode, fixed at creation as in AFNetworking.
    public let pinningMode: PinningMode

    /// The certificates to pin, DER-encoded (PEM is accepted and converted). Entries that are
    /// not certificates are ignored, as AFNetworking ignores them, so check your input with
    /// ``Certificate/init(data:)`` if in doubt.
    public var pinnedCertificates: Set<Data> {
        didSet { pinned = PinnedMaterial(pinnedCertificates) }
    }

    /// Whether to trust servers whose chain does not validate: an unknown or self-signed root,
    /// an expired or not yet valid certificate. Defaults to `false`.
    ///
    /// As in AFNetworking: without pinning it only works with ``validatesDomainName`` off (and
    /// then any server is trusted); in public-key mode the pin still has to match; in
    /// certificate mode the chain must still validate against the pinned certificates, dates
    /// and host included.
    public var allowInvalidCertificates = false

    /// Whether the certificate must be valid for the host name or IP address requested.
    /// Defaults to `true`.
    public var validatesDomainName = true

    /// The anchors the chain is validated against before any pin is looked at; AFNetworking
    /// used the system's. Defaults to ``TrustStore/system``.
    public var trustStore: TrustStore = .system

    private var pinned: PinnedMaterial

    /// Creates a policy that pins `pinnedCertificates` in `pinningMode`.
    public init(pinningMode: PinningMode, withPinnedCertificates pinnedCertificates: Set<Data>) {
        self.pinningMode = pinningMode
        self.pinnedCertificates = pinnedCertificates
        self.pinned = PinnedMaterial(pinnedCertificates)
    }

    /// Creates a policy that pins every certificate resource of `bundle` (``certificates(in:)``),
    /// AFNetworking's `policyWithPinningMode:` with the bundle named: with SwiftPM, the
    /// `Bundle.module` of the target that declares the certificates as resources. (AFNetworking
    /// read a bundle implicitly; under SwiftPM on Linux `Bundle.main` holds no certificate, and
    /// pinning nothing would refuse every server.) Without resources, embed the certificates
    /// with the `GannetEmbedCertificates` plugin and use
    /// ``init(pinningMode:withPinnedCertificates:)`` (docs/plugins.md).
    ///
    /// - Throws: ``CertificateError`` with code `.noCertificates` when `pinningMode` pins and
    ///   `bundle` holds no certificate.
    public init(pinningMode: PinningMode, certificatesIn bundle: Bundle) throws(CertificateError) {
        let certificates = SecurityPolicy.certificates(in: bundle)
        if pinningMode != .none && certificates.isEmpty {
            throw CertificateError(
                .noCertificates,
                "no .cer, .der, .crt or .pem certificate in bundle \(bundle.bundlePath): a policy pinning nothing refuses every server",
                path: bundle.bundlePath
            )
        }
        self.init(pinningMode: pinningMode, withPinnedCertificates: certificates)
    }

    /// Unavailable: name the certificates. AFNetworking's `policyWithPinningMode:` pinned the
    /// certificates of an implicit bundle; under SwiftPM on Linux `Bundle.main` holds none, so
    /// such a policy would refuse every server.
    @available(
        *,
        unavailable,
        message:
            "name the certificates: init(pinningMode:withPinnedCertificates:) or init(pinningMode:certificatesIn: .module)"
    )
    public init(pinningMode: PinningMode) {
        fatalError("unavailable")
    }

    /// The default policy: no pinning, invalid certificates refused, domain names validated.
    public static var `default`: SecurityPolicy {
        SecurityPolicy(pinningMode: .none, withPinnedCertificates: [])
    }

    /// The public keys of ``pinnedCertificates``, as pins.
    public var pinnedPublicKeys: Set<PublicKeyPin> { pinned.keys }

    /// `true` when pinning: a pinned policy makes no sense over plain HTTP, and a session
    /// manager refuses a non-`https` base URL with it, as AFNetworking does.
    public var requiresSecureTransport: Bool { pinningMode != .none }

    /// Whether `trust` should be accepted for `domain` (AFNetworking's
    /// `evaluateServerTrust:forDomain:`). A `nil` domain skips the host name check.
    public func evaluate(_ trust: ServerTrust, forDomain domain: String?) -> Bool {
        do {
            try evaluate(trust, domain: domain)
            return true
        } catch {
            return false
        }
    }

    /// Accepts `trust` for its own host, or throws a ``ServerTrustError`` saying why not.
    public func evaluate(_ trust: ServerTrust) throws {
        try evaluate(trust, domain: trust.host)
    }

    /// The decision, in AFNetworking's order: configuration, chain against ``trustStore``
    /// (unless invalid certificates are allowed), then the pinning mode's own test.
    func evaluate(_ trust: ServerTrust, domain: String?) throws(ServerTrustError) {
        let reportedHost = domain ?? trust.host
        if domain != nil, allowInvalidCertificates, validatesDomainName,
            pinningMode == .none || pinned.certificates.isEmpty
        {
            throw ServerTrustError(
                .invalidConfiguration,
                "To validate a domain name while allowing invalid certificates, pin certificates or keys",
                host: reportedHost
            )
        }
        if pinningMode == .none, allowInvalidCertificates { return }
        let presented = try PresentedChain(
            ServerTrust(host: reportedHost, port: trust.port, certificateChain: trust.certificateChain)
        )
        let hostToCheck = validatesDomainName ? domain : nil

        var verifiedChain: [Certificate]? = nil
        if !allowInvalidCertificates {
            let chain = try ChainVerifier(trustStore: trustStore).verify(presented)
            if let hostToCheck { try HostNameCheck.check(chain[0], host: hostToCheck, chain: chain) }
            verifiedChain = chain
        }
        switch pinningMode {
        case .none:
            return
        case .certificate:
            try evaluateCertificatePins(presented, hostToCheck: hostToCheck, verifiedChain: verifiedChain)
        case .publicKey:
            try evaluatePublicKeyPins(presented, hostToCheck: hostToCheck, verifiedChain: verifiedChain)
        }
    }

    private func evaluateCertificatePins(
        _ presented: PresentedChain,
        hostToCheck: String?,
        verifiedChain: [Certificate]?
    ) throws(ServerTrustError) {
        guard let anchors = pinned.anchors else {
            throw PinFailure.noPins(host: presented.host, chain: verifiedChain ?? presented.certificates())
        }
        // When no pinned certificate anchors the chain, the error lists the chain verified
        // against the trust store (or, with invalid certificates allowed, the chain OpenSSL
        // could link from what the server sent).
        let pinnedChain = try PinFailure.verifyAgainstPins(
            presented,
            anchors: anchors,
            fallbackChain: { verifiedChain ?? PinFailure.linkedChain(presented, trustStore: trustStore) },
            pinned: pinned.certificates.map(\.description).sorted()
        )
        if let hostToCheck { try HostNameCheck.check(pinnedChain[0], host: hostToCheck, chain: pinnedChain) }
        // AFNetworking walks the evaluated chain from the anchor down looking for a pinned
        // certificate; with the pinned set as the only anchors the anchor is always one.
        guard pinnedChain.contains(where: pinned.certificates.contains) else {
            throw PinFailure.mismatch(
                host: presented.host,
                chain: pinnedChain,
                pinned: pinned.certificates.map(\.description).sorted()
            )
        }
    }

    private func evaluatePublicKeyPins(
        _ presented: PresentedChain,
        hostToCheck: String?,
        verifiedChain: [Certificate]?
    ) throws(ServerTrustError) {
        let chain: [Certificate]
        if let verifiedChain {
            chain = verifiedChain
        } else {
            chain = try ChainVerifier(trustStore: trustStore, leniency: .allowsUntrustedAndDates).verify(presented)
            if let hostToCheck { try HostNameCheck.check(chain[0], host: hostToCheck, chain: chain) }
        }
        guard !pinned.keys.isEmpty else {
            throw PinFailure.noPins(host: presented.host, chain: chain)
        }
        guard chain.contains(where: { pinned.keys.contains($0.publicKeyPin) }) else {
            throw PinFailure.mismatch(
                host: presented.host,
                chain: chain,
                pinned: pinned.keys.map(\.description).sorted()
            )
        }
    }

    /// Every certificate resource of a bundle: files ending in `.cer`, `.der`, `.crt` or
    /// `.pem` at the bundle's top level (AFNetworking read only `.cer`). PEM files may hold
    /// several certificates; each is returned as DER. Files that are not certificates are
    /// skipped.
    ///
    /// With SwiftPM, declare the files as resources and pass `Bundle.module`.
    public static func certificates(in bundle: Bundle) -> Set<Data> {
        var found: Set<Data> = []
        for fileExtension in ["cer", "der", "crt", "pem"] {
            for path in bundle.paths(forResourcesOfType: fileExtension, inDirectory: nil) {
                let url = URL(fileURLWithPath: path)
                guard let certificates = try? Certificate.certificates(contentsOf: url) else { continue }
                found.formUnion(certificates.map(\.derEncoded))
            }
        }
        return found
    }
}
