/// Why the test servers could not be started: what is missing and how to install it.
///
/// Tests that need a server fail with this message; they are never skipped.
public struct TestServerError: Error, CustomStringConvertible, Sendable {
    /// A sentence naming the missing piece and the command that installs it.
    public let description: String

    /// Creates an error with the given explanation.
    public init(_ description: String) {
        self.description = description
    }
}
