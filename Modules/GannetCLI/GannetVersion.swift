internal import CCurl
internal import CLibXML2
internal import COpenSSL

/// The version `gannet --version` prints and `User-Agent` carries, and the libraries `gannet`
/// runs on.
enum GannetVersion {
    static let current = "0.1.0"

    /// `gannet --version`: gannet's version, then the libcurl, OpenSSL, nghttp2 and libxml2
    /// loaded at run time (the shared libraries a distribution's update replaces without a
    /// rebuild, not the headers gannet was built with) and libcurl's features: what a bug report
    /// needs (docs/cli.md, "Version").
    static var report: String {
        var lines = ["gannet \(current)"]
        // CURLVERSION_NOW is a macro naming an enum case, which Swift does not import; the
        // eleventh layout (libcurl 7.87) is the first with `feature_names`.
        if let info = curl_version_info(CURLVERSION_ELEVENTH)?.pointee {
            let parts = [
                string(info.ssl_version), string(info.libz_version).map { "zlib/" + $0 },
                string(info.brotli_version).map { "brotli/" + $0 }, string(info.zstd_version).map { "zstd/" + $0 },
                string(info.nghttp2_version).map { "nghttp2/" + $0 },
            ]
            lines.append("libcurl \(string(info.version) ?? "?") (\(parts.compactMap { $0 }.joined(separator: " ")))")
            lines.append(string(OpenSSL_version(OPENSSL_VERSION)) ?? "OpenSSL ?")
            lines.append("nghttp2 " + (string(info.nghttp2_version) ?? "none: libcurl was built without HTTP/2"))
            lines.append("libxml2 \(libxml2Version)")
            lines.append("Features: " + features(info).joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// libcurl's feature names (`curl --version`'s line), where its struct is new enough to
    /// carry them (an older libcurl fills an older, shorter layout).
    private static func features(_ info: curl_version_info_data) -> [String] {
        guard info.age.rawValue >= CURLVERSION_ELEVENTH.rawValue, var cursor = info.feature_names else { return [] }
        var names: [String] = []
        while let name = cursor.pointee {
            names.append(String(cString: name))
            cursor += 1
        }
        return names
    }

    /// libxml2's run-time version, `20914` written as `2.9.14`. gannet loads libxml2 only to
    /// parse XML (docs/performance.md, "Start-up"), so this loads it too, or says it is missing.
    private static var libxml2Version: String {
        guard let version = clibxml2_runtime_version() else {
            return "unavailable (\(CLIBXML2_SONAME) could not be loaded)"
        }
        guard let number = Int(String(cString: version)) else { return "?" }
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
