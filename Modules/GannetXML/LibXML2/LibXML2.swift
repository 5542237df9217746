internal import CLibXML2

/// Process-wide libxml2 set-up, and the per-call scoping of its error handlers.
///
/// libxml2 keeps its error handlers in thread-local globals (Debian builds it with threads),
/// so "install once" would only cover the thread that happened to do it. Instead every call
/// into the parser installs Gannet's handlers on the calling thread and restores the previous
/// ones afterwards: nothing reaches stderr, and other libxml2 users in the process (Foundation's
/// `XMLParser`) keep their own handlers.
enum LibXML2 {
    /// `xmlInitParser` is not safe to race with itself on first use; a `static let` runs it
    /// exactly once, before any parser context exists.
    static let initialized: Void = { xmlInitParser() }()

    /// Runs `body` with libxml2's thread-local error handlers pointing at `context`'s
    /// structured handler and at a generic handler that discards everything.
    static func withErrorHandlers<T>(routedTo context: UnsafeMutableRawPointer, _ body: () throws -> T) rethrows -> T {
        let structured = __xmlStructuredError()
        let structuredContext = __xmlStructuredErrorContext()
        let generic = __xmlGenericError()
        let genericContext = __xmlGenericErrorContext()
        let saved = (structured?.pointee, structuredContext?.pointee, generic?.pointee, genericContext?.pointee)
        xmlSetStructuredErrorFunc(context, gannetStructuredError)
        xmlSetGenericErrorFunc(nil, discardingGenericErrorFunction)
        defer {
            // Both setters would substitute libxml2's stderr printers for a NULL handler, so the
            // saved values are written back as they were.
            structured?.pointee = saved.0
            structuredContext?.pointee = saved.1
            generic?.pointee = saved.2
            genericContext?.pointee = saved.3
        }
        return try body()
    }

    /// `xmlGenericErrorFunc` is variadic, so Swift cannot form one and imports the type as an
    /// opaque pointer. A non-variadic C function that ignores its arguments is called correctly
    /// through a variadic pointer on the System V x86-64 and AAPCS64 ABIs Gannet runs on (the
    /// fixed arguments travel in the same registers; nothing is read from the variadic part).
    private static var discardingGenericErrorFunction: xmlGenericErrorFunc {
        clibxml2_discarding_generic_error_func()!
    }
}
