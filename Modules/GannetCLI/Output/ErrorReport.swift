import Gannet

/// The one-line message and exit status for an error that ended a command.
enum ErrorReport {
    static func describe(_ error: any Error) -> (message: String, status: ExitStatus) {
        switch error {
        case let error as CLIError:
            // A usage error may quote an argument such as a proxy URL with its password, and a
            // server's or a certificate's text.
            return (ControlEscaping.escaped(CredentialRedaction.text(error.message)), error.status)
        case let error as URLError:
            let status: ExitStatus
            switch error.code {
            case .timedOut: status = .timeout
            case .httpTooManyRedirects: status = .tooManyRedirects
            default: status = .error
            }
            return (message(for: error), status)
        case let error as GannetError:
            return (
                describeGannet(error),
                error.code == .timedOut ? .timeout : error.code == .tooManyRedirects ? .tooManyRedirects : .error
            )
        default:
            return (oneLine(String(describing: error)), .error)
        }
    }

    /// A transport error's detail: the underlying GannetError's message (curl's or OpenSSL's
    /// reason, an evaluator's verdict with the presented pins) and the URL.
    static func message(for error: URLError) -> String {
        if let underlying = error.errorUserInfo[NSUnderlyingErrorKey] as? GannetError {
            return describeGannet(underlying)
        }
        if let underlying = error.errorUserInfo[NSUnderlyingErrorKey] as? any Error {
            return oneLine(String(describing: underlying))
        }
        return oneLine(error.localizedDescription)
    }

    static func describeGannet(_ error: GannetError) -> String {
        oneLine(error.description)
    }

    /// Errors are printed on one line, at most 800 characters (a serializer's message may quote
    /// up to 1 KB of the body), with any control character a server slipped into it escaped.
    static func oneLine(_ text: String) -> String {
        let text = CredentialRedaction.text(text)
        let joined = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " "
        )
        let line = ControlEscaping.escaped(joined)
        return line.count > 800 ? String(line.prefix(799)) + "…" : line
    }
}
