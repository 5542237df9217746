/// A host name pattern in OkHttp's `CertificatePinner` syntax:
///
/// - `example.com` matches exactly that host;
/// - `*.example.com` matches one label more: `www.example.com`, not `example.com` nor
///   `a.b.example.com`;
/// - `**.example.com` matches `example.com` and any number of labels more.
///
/// Matching ignores case and a trailing dot. Internationalized names must be written in their
/// ASCII (punycode) form, as they appear in certificates and URLs.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Hashable { case exact, oneLabel, anyDepth }
    private let kind: Kind
    /// The part after the wildcard (without its leading dot), or the whole host.
    private let suffix: String

    /// Parses a pattern.
    public init(_ pattern: String) throws(PinError) {
        let lowered = HostNameCheck.normalized(pattern.lowercased())
        let kind: Kind
        let suffix: String
        if lowered.hasPrefix("**.") {
            (kind, suffix) = (.anyDepth, String(lowered.dropFirst(3)))
        } else if lowered.hasPrefix("*.") {
            (kind, suffix) = (.oneLabel, String(lowered.dropFirst(2)))
        } else {
            (kind, suffix) = (.exact, lowered)
        }
        guard !suffix.isEmpty, !suffix.contains("*"), !suffix.hasPrefix("."), !suffix.contains(".."),
            suffix.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "/" })
        else {
            throw PinError(
                "Invalid host pattern \"\(pattern)\": use example.com, *.example.com or **.example.com (ASCII)"
            )
        }
        self.kind = kind
        self.suffix = suffix
    }

    /// Whether `host` matches.
    public func matches(_ host: String) -> Bool {
        let host = HostNameCheck.normalized(host.lowercased())
        switch kind {
        case .exact:
            return host == suffix
        case .anyDepth:
            return host == suffix || host.hasSuffix("." + suffix)
        case .oneLabel:
            guard host.hasSuffix("." + suffix) else { return false }
            let label = host.dropLast(suffix.count + 1)
            return !label.isEmpty && !label.contains(".")
        }
    }

    /// How specific the pattern is, for picking the best of several matches: exact names
    /// first, then longer suffixes, then one-label wildcards before any-depth ones.
    var specificity: (Int, Int, Int) {
        switch kind {
        case .exact: (1, suffix.count, 0)
        case .oneLabel: (0, suffix.count, 1)
        case .anyDepth: (0, suffix.count, 0)
        }
    }

    /// A one-line description for logs.
    public var description: String {
        switch kind {
        case .exact: suffix
        case .oneLabel: "*." + suffix
        case .anyDepth: "**." + suffix
        }
    }
}
