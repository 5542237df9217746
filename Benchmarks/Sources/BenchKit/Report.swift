internal import Foundation

/// The output lines and exit codes of the contract: exit 0 on success, 1 on failure, 2 for a
/// mode the client does not support. Diagnostics go to standard error.
public enum Report {
    /// Prints `requests_per_s=<float> errors=<int>`; exits 1 when any request failed.
    public static func requests(count: Int, errors: Int, nanoseconds: UInt64) -> Never {
        let seconds = Double(nanoseconds) / 1e9
        print("requests_per_s=\(String(format: "%.1f", Double(count) / seconds)) errors=\(errors)")
        exit(errors == 0 ? 0 : 1)
    }

    /// Prints `bytes=<n> seconds=<float>`; exits 1 when `expected` is known and differs.
    public static func transfer(bytes: Int64, nanoseconds: UInt64, expected: Int64? = nil) -> Never {
        print("bytes=\(bytes) seconds=\(String(format: "%.4f", Double(nanoseconds) / 1e9))")
        if let expected, expected != bytes {
            fail("transferred \(bytes) bytes, expected \(expected)")
        }
        exit(0)
    }

    /// Ends the run with exit code 1.
    public static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        exit(1)
    }

    /// Ends the run with exit code 1 for a malformed command line.
    public static func usage(_ message: String) -> Never {
        fail(
            "\(message)\nusage: CLIENT get URL --requests N --concurrency C | download URL [--output FILE] | upload URL FILE"
        )
    }

    /// Ends the run with exit code 2: this client cannot do what was asked.
    public static func unsupported(_ message: String) -> Never {
        FileHandle.standardError.write(Data("unsupported: \(message)\n".utf8))
        exit(2)
    }
}

/// A monotonic clock in nanoseconds.
public enum Clock {
    /// Nanoseconds since an arbitrary fixed point.
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
