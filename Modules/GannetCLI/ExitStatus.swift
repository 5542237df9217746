/// The process exit codes, httpie's table: scripts written for `http` read `gannet` the same way.
struct ExitStatus: Hashable, Sendable, CustomStringConvertible {
    let code: Int32

    /// Success; also any HTTP status without `--check-status`.
    static let success = ExitStatus(code: 0)
    /// A transport, TLS, file or serialization error.
    static let error = ExitStatus(code: 1)
    /// The request timed out (`--timeout`); also a usage error (as httpie's argparse).
    static let timeout = ExitStatus(code: 2)
    /// Bad arguments: httpie's argparse exits with 2 as well.
    static let usage = ExitStatus(code: 2)
    /// `--check-status` and a 3xx response that was not followed.
    static let redirection = ExitStatus(code: 3)
    /// `--check-status` and a 4xx response.
    static let clientError = ExitStatus(code: 4)
    /// `--check-status` and a 5xx response.
    static let serverError = ExitStatus(code: 5)
    /// More redirects than `--max-redirects`.
    static let tooManyRedirects = ExitStatus(code: 6)

    /// The `--check-status` exit code for `statusCode`.
    static func checking(statusCode: Int) -> ExitStatus {
        switch statusCode {
        case 300..<400: return .redirection
        case 400..<500: return .clientError
        case 500..<600: return .serverError
        default: return .success
        }
    }

    var description: String { String(code) }
}

/// A failure that ends the command: printed as `gannet: error: MESSAGE`, then the process
/// exits with `status`.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    let status: ExitStatus

    init(_ message: String, status: ExitStatus = .error) {
        self.message = message
        self.status = status
    }

    /// A command line that cannot be understood.
    static func usage(_ message: String) -> CLIError {
        CLIError(message, status: .usage)
    }

    var description: String { message }
}
