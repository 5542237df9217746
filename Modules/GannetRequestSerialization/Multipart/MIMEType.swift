/// MIME types for common file name extensions, for multipart file parts. AFNetworking asked
/// the platform's UTType database, which Linux does not have; this built-in table does not
/// depend on `/etc/mime.types` being installed, so a part's type is the same on every machine.
public enum MIMEType {
    /// The type for `pathExtension` (case-insensitive, without the dot), or
    /// `application/octet-stream` when the extension is unknown or empty.
    ///
    /// ```swift
    /// MIMEType.forPathExtension("JPG")   // "image/jpeg"
    /// MIMEType.forPathExtension("xyz")   // "application/octet-stream"
    /// ```
    public static func forPathExtension(_ pathExtension: String) -> String {
        table[pathExtension.lowercased()] ?? fallback
    }

    /// The type used when an extension is not in the table.
    public static let fallback = "application/octet-stream"

    private static let table: [String: String] = [
        // Text
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "conf": "text/plain",
        "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "tsv": "text/tab-separated-values", "md": "text/markdown", "markdown": "text/markdown",
        "js": "text/javascript", "mjs": "text/javascript", "ics": "text/calendar",
        "vcf": "text/vcard", "rtf": "application/rtf", "xml": "application/xml",
        "yaml": "application/yaml", "yml": "application/yaml", "toml": "application/toml",
        // Data
        "json": "application/json", "jsonld": "application/ld+json", "geojson": "application/geo+json",
        "ndjson": "application/x-ndjson", "pdf": "application/pdf", "wasm": "application/wasm",
        "bin": "application/octet-stream", "exe": "application/octet-stream",
        "sql": "application/sql", "plist": "application/x-plist",
        "msgpack": "application/msgpack", "pb": "application/x-protobuf",
        // Archives
        "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "bz2": "application/x-bzip2", "xz": "application/x-xz",
        "zst": "application/zstd", "7z": "application/x-7z-compressed", "rar": "application/vnd.rar",
        "jar": "application/java-archive", "deb": "application/vnd.debian.binary-package",
        "rpm": "application/x-rpm", "dmg": "application/x-apple-diskimage", "iso": "application/x-iso9660-image",
        // Images
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "jpe": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "heic": "image/heic",
        "heif": "image/heif", "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff",
        "svg": "image/svg+xml", "svgz": "image/svg+xml", "ico": "image/vnd.microsoft.icon",
        "jxl": "image/jxl", "psd": "image/vnd.adobe.photoshop",
        // Audio
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav",
        "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/opus", "flac": "audio/flac",
        "mid": "audio/midi", "midi": "audio/midi", "weba": "audio/webm", "caf": "audio/x-caf",
        // Video
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mkv": "video/x-matroska", "avi": "video/x-msvideo", "mpeg": "video/mpeg", "mpg": "video/mpeg",
        "ogv": "video/ogg", "3gp": "video/3gpp", "ts": "video/mp2t",
        // Fonts
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        // Documents
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "odp": "application/vnd.oasis.opendocument.presentation",
        "epub": "application/epub+zip",
        // Certificates and keys
        "pem": "application/x-pem-file", "crt": "application/x-x509-ca-cert", "cer": "application/pkix-cert",
        "der": "application/x-x509-ca-cert", "p12": "application/x-pkcs12", "pfx": "application/x-pkcs12",
    ]
}
