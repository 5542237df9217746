extension MultipartFormData {
    /// One body part: its header lines and where its bytes come from.
    struct Part {
        /// Where a part's body comes from. Files and streams are only opened when the reader
        /// reaches them.
        enum Body {
            case data(Data)
            case file(URL, length: UInt64)
            case stream(InputStream, length: UInt64)

            var length: UInt64 {
                switch self {
                case .data(let data): UInt64(data.count)
                case .file(_, let length), .stream(_, let length): length
                }
            }
        }

        let headers: [(name: String, value: String)]
        let body: Body

        /// `Name: value\r\n` for each header, then the blank line, as UTF-8.
        var headerBytes: Data {
            var text = ""
            for header in headers {
                text += "\(header.name): \(header.value)\r\n"
            }
            text += "\r\n"
            return Data(text.utf8)
        }
    }

    /// `name` for a `Content-Disposition` quoted string, as HTML and RFC 7578 §4.2 write it:
    /// `"` becomes `%22`, CR `%0D`, LF `%0A`. Servers see exactly these escapes; nothing else changes.
    static func escapedDispositionValue(_ name: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(name.unicodeScalars.count)
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `form-data; name="…"` with an optional `; filename="…"`.
    static func contentDisposition(name: String, fileName: String?) -> String {
        var value = "form-data; name=\"\(escapedDispositionValue(name))\""
        if let fileName {
            value += "; filename=\"\(escapedDispositionValue(fileName))\""
        }
        return value
    }
}
