internal import CLibXML2

/// Process-wide libxml2 set-up, and the per-call scoping of its error handlers.
///
/// libxml2 keeps its error handlers in thread-local globals (Debian builds it with threads),
/// so "install once" would only cover the thread that happened to do it. Instead every call
/// into the parser installs Gannet's handlers on the calling thread and restores the previous
/// ones afterwards: nothing reaches stderr, and other libxml2 users in the process (Foundation's
/// `XMLParser`) keep their own handlers.
enum LibXML2 {
    /// libxml2, opened and initialised the first time a parser context is made, or why it
    /// could not be. Gannet never links libxml2: loaded at start-up, it and the ICU it brings
    /// would cost every process that parses no XML (docs/performance.md, "Start-up"). A
    /// `static let` runs this exactly once, so `xmlInitParser` (not safe to race with itself on
    /// first use) runs once, before any parser context exists.
    private static let loaded: Result<Functions, XMLError> = {
        var reason = [CChar](repeating: 0, count: 512)
        guard let table = clibxml2_load(&reason, reason.count) else {
            let why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(
                XMLError(.libraryUnavailable, "libxml2 (\(CLIBXML2_SONAME)) could not be loaded: \(why)")
            )
        }
        let functions = Functions(table: table)
        functions.initParser()
        return .success(functions)
    }()

    /// libxml2's functions, loading the library on first use; throws
    /// ``XMLError/Code/libraryUnavailable`` when it is not installed.
    static func load() throws(XMLError) -> Functions {
        try loaded.get()
    }

    /// libxml2's functions, for code that runs only once a parser context exists, which
    /// ``load()`` succeeded in making (`SAXParserContext.createContext()`): every libxml2 object
    /// Gannet holds came from a loaded library.
    static var functions: Functions {
        switch loaded {
        case .success(let functions): return functions
        case .failure(let error): preconditionFailure("libxml2 called before it was loaded: \(error)")
        }
    }

    /// The table `clibxml2_load` bound (Modules/CLibXML2/shim.h); it lives as long as the
    /// process, like the library it points into.
    @dynamicMemberLookup
    struct Functions: @unchecked Sendable {
        // @unchecked: the table is written once, by `clibxml2_load`, before this value exists,
        // and never again; sharing a pointer to immutable memory across threads is safe.
        let table: UnsafePointer<clibxml2_functions>

        subscript<Function>(dynamicMember keyPath: KeyPath<clibxml2_functions, Function>) -> Function {
            table.pointee[keyPath: keyPath]
        }
    }

    /// Runs `body` with libxml2's thread-local error handlers pointing at `context`'s
    /// structured handler and at a generic handler that discards everything.
    static func withErrorHandlers<T>(routedTo context: UnsafeMutableRawPointer, _ body: () throws -> T) rethrows -> T {
        let libxml2 = functions
        let structured = libxml2.structuredError()
        let structuredContext = libxml2.structuredErrorContext()
        let generic = libxml2.genericError()
        let genericContext = libxml2.genericErrorContext()
        let saved = (structured?.pointee, structuredContext?.pointee, generic?.pointee, genericContext?.pointee)
        libxml2.setStructuredErrorFunc(context, gannetStructuredError)
        libxml2.setGenericErrorFunc(nil, discardingGenericErrorFunction)
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
