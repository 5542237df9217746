internal import CLibXML2

/// One libxml2 SAX2 push parser context and everything Gannet keeps beside it: limits,
/// counters, the text being coalesced, declared entities.
///
/// Single-owner: one ``XMLStreamParser`` (or one ``XMLDocument/parse(data:options:)`` call)
/// drives it from one thread at a time. libxml2 calls back into it only from inside
/// `xmlCreatePushParserCtxt` and `xmlParseChunk`, on that same thread.
final class SAXParserContext {
    /// Where events go. Unretained: whoever creates a context keeps its sink alive for as long
    /// as it feeds the context (``XMLStreamParser`` owns both; ``XMLDocument`` holds the
    /// builder across the parse), and the callbacks stay free of reference counting.
    private let sinkReference: Unmanaged<SAXEventSink>
    let options: XMLParsingOptions

    private(set) var context: xmlParserCtxtPtr?
    /// The first bytes, held back until there are four: libxml2 detects UTF-16 and UCS-4 from
    /// them when the context is created.
    private var head: [UInt8] = []
    private var bytesReceived: Int64 = 0
    /// Whether every byte so far was XML white space (or there was none).
    private(set) var isBlankSoFar = true
    private var isFinished = false
    private var isInsideCall = false

    /// The first failure: an ``XMLError`` or an error a handler threw.
    private(set) var failure: (any Error)?

    /// The state the callbacks touch on every event. It lives behind a pointer because stored
    /// properties of a class are checked for exclusive access at run time on every mutation,
    /// which cost a quarter of the parse time; this object is single-owner (see above), so the
    /// check buys nothing here.
    let state: UnsafeMutablePointer<SAXState>
    let entities: EntityTable?

    /// Bytes handed to `xmlParseChunk` at once. Large enough to keep call overhead low, small
    /// enough that libxml2's buffer stays far from its 10 MB look-up limit.
    static let sliceSize = 64 * 1024

    init(sink: SAXEventSink, options: XMLParsingOptions) {
        sinkReference = .passUnretained(sink)
        self.options = options
        self.entities = options.allowsInternalEntities ? EntityTable() : nil
        state = .allocate(capacity: 1)
        state.initialize(to: SAXState())
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        guard let context else { return }
        let libxml2 = LibXML2.functions
        if let document = context.pointee.myDoc { libxml2.freeDoc(document) }
        libxml2.freeParserCtxt(context)
    }

    // MARK: Driving the parser

    /// Parses the next bytes of the document.
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try enter()
        defer { isInsideCall = false }
        if bytes.isEmpty { return }
        bytesReceived += Int64(bytes.count)
        if isBlankSoFar {
            isBlankSoFar = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        }
        if let maximum = options.limits.maximumDocumentBytes, bytesReceived > maximum {
            fail(
                XMLError(
                    .documentTooLarge,
                    "The document is larger than \(maximum) bytes",
                    line: position.line,
                    column: position.column
                )
            )
            try stop()
        }
        var remaining = bytes
        if context == nil {
            let taken = min(4 - head.count, remaining.count)
            head.append(contentsOf: remaining.prefix(taken))
            remaining = UnsafeRawBufferPointer(rebasing: remaining.dropFirst(taken))
            guard head.count == 4 else { return }
            try createContext()
        }
        while !remaining.isEmpty {
            let slice = UnsafeRawBufferPointer(rebasing: remaining.prefix(Self.sliceSize))
            remaining = UnsafeRawBufferPointer(rebasing: remaining.dropFirst(slice.count))
            try parse(slice, terminate: false)
        }
    }

    /// Tells libxml2 the document ended and reports whether it was complete.
    func finish() throws {
        try enter()
        defer { isInsideCall = false }
        isFinished = true
        if context == nil { try createContext() }
        try parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        if let context, context.pointee.wellFormed == 0 {
            // Every error reaches the structured handler; this only guards against one that
            // libxml2 recorded without raising.
            fail(XMLError(.malformed, "The document is not well-formed", line: position.line, column: position.column))
            try stop()
        }
    }

    private func enter() throws {
        if let failure { throw failure }
        guard !isInsideCall else {
            throw XMLError(.invalidState, "The parser was called from inside one of its own callbacks")
        }
        guard !isFinished else { throw XMLError(.invalidState, "The parser already finished") }
        isInsideCall = true
    }

    private func createContext() throws {
        let libxml2: LibXML2.Functions
        do {
            libxml2 = try LibXML2.load()
        } catch {
            fail(error)
            try stop()
        }
        var handler = SAXParserContext.makeSAXHandler()
        let userData = Unmanaged.passUnretained(self).toOpaque()
        let created = head.withUnsafeBufferPointer { head in
            LibXML2.withErrorHandlers(routedTo: userData) {
                head.withMemoryRebound(to: CChar.self) {
                    libxml2.createPushParserCtxt(&handler, userData, $0.baseAddress, Int32($0.count), nil)
                }
            }
        }
        guard let created else {
            fail(XMLError(.malformed, "libxml2 could not create a parser context"))
            try stop()
        }
        context = created
        state.pointee.dictionary = created.pointee.dict
        // NONET blocks network access if anything were ever to be loaded. Deliberately absent:
        // NOENT (substitutes entities, loads external ones even with NONET), DTDLOAD, DTDATTR,
        // DTDVALID (load the external subset), HUGE (lifts libxml2's own size and depth limits),
        // XINCLUDE. Setting options also resets whatever process-wide defaults another libxml2
        // user may have changed (xmlSubstituteEntitiesDefault, xmlLoadExtDtdDefaultValue).
        _ = libxml2.ctxtUseOptions(created, Int32(XML_PARSE_NONET.rawValue))
    }

    private func parse(_ bytes: UnsafeRawBufferPointer, terminate: Bool) throws {
        guard let context else { return }
        let userData = Unmanaged.passUnretained(self).toOpaque()
        _ = LibXML2.withErrorHandlers(routedTo: userData) {
            LibXML2.functions.parseChunk(
                context,
                bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                Int32(bytes.count),
                terminate ? 1 : 0
            )
        }
        if hasFailed { try stop() }
    }

    /// Halts libxml2 (outside any callback, where halting is always safe), tells the handler
    /// about a parser error, and throws the failure.
    private func stop() throws -> Never {
        if let context { LibXML2.functions.stopParser(context) }
        let failure = failure ?? XMLError(.malformed, "The parser stopped")
        if let error = failure as? XMLError { withSink { $0.didFail(error) } }
        isFinished = true
        throw failure
    }

    /// Calls the sink without retaining it.
    @inline(__always)
    func withSink<Result>(_ body: (SAXEventSink) throws -> Result) rethrows -> Result {
        try sinkReference._withUnsafeGuaranteedRef(body)
    }

    // MARK: Failing from inside callbacks

    /// Records the first failure and silences every later callback. libxml2 is halted by
    /// ``stop()`` once `xmlParseChunk` returns, never from inside a callback, where it may still
    /// hold pointers into the buffers that halting frees.
    func fail(_ error: any Error) {
        guard !hasFailed else { return }
        state.pointee.hasFailed = true
        failure = error
        context?.pointee.disableSAX = 1
        state.pointee.text.discard()
    }

    /// Whether parsing failed; checked first by every callback.
    var hasFailed: Bool { state.pointee.hasFailed }

    /// Fails with `code` at the current position.
    func fail(_ code: XMLError.Code, _ message: String) {
        let position = position
        fail(XMLError(code, message, line: position.line, column: position.column))
    }

    /// The line and column libxml2 is at, 1-based.
    var position: (line: Int, column: Int) {
        guard let context else { return (0, 0) }
        let libxml2 = LibXML2.functions
        return (Int(libxml2.sax2GetLineNumber(context)), Int(libxml2.sax2GetColumnNumber(context)))
    }
}
