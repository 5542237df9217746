/// The default headers of a new ``RequestSerializerConfiguration``.
package enum DefaultHeaders {
    /// Gannet's version, as sent in `User-Agent`.
    static let gannetVersion = "0.1"

    /// `Gannet/0.1 (Linux; x86_64) Swift/6`: the library, the platform, the compiler's major
    /// version. AFNetworking named the app bundle; a Linux process has no bundle to name.
    static let userAgent = "Gannet/\(gannetVersion) (\(operatingSystem); \(architecture)) Swift/6"

    /// AFNetworking's `Accept-Language`: the preferred languages in order with q-values 1, 0.9,
    /// 0.8 … stopping after 0.5 (six languages at most), e.g. `en-GB;q=1, fr;q=0.9`.
    /// `nil` when the locale names no language.
    static func acceptLanguage(_ languages: [String] = Locale.preferredLanguages) -> String? {
        var components: [String] = []
        for (index, language) in languages.prefix(6).enumerated() {
            // Character by character, not `replacingOccurrences`, which bridges to NSString:
            // every request serializer configuration is made with this header, the CLI's at
            // start-up included (docs/performance.md, "Start-up").
            let tag = String(language.map { $0 == "_" ? "-" : $0 })
            guard !tag.isEmpty, RequestValidation.isValidHeaderValue(tag) else { continue }
            // q = 1 - index/10 written as AFNetworking's "%0.1g": "1", "0.9" … "0.5".
            let quality = index == 0 ? "1" : "0.\(10 - index)"
            components.append("\(tag);q=\(quality)")
        }
        return components.isEmpty ? nil : components.joined(separator: ", ")
    }

    /// `Basic base64(username:password)` (RFC 7617), the text encoded as UTF-8. Package access:
    /// the CLI's `--auth` sends the same header.
    package static func basicAuthorization(username: String, password: String) -> String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    private static var operatingSystem: String {
        #if os(Linux)
        "Linux"
        #elseif os(macOS)
        "macOS"
        #elseif os(FreeBSD)
        "FreeBSD"
        #elseif os(Windows)
        "Windows"
        #else
        "Unknown"
        #endif
    }

    private static var architecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "arm64"
        #elseif arch(i386)
        "i386"
        #elseif arch(arm)
        "arm"
        #else
        "unknown"
        #endif
    }
}
