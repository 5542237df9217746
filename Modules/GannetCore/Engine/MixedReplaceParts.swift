/// A data task's `multipart/x-mixed-replace` body as NSURLSession delivers it: each part is a
/// response of its own (the part's headers, the status of the head that announced the parts),
/// and its bytes replace the previous part's (docs/core.md, "x-mixed-replace").
/// ``MixedReplaceParser`` splits the bytes; this value turns what it finds into the responses
/// the transfer reports and asks the response hook about, with no I/O (MixedReplacePartsTests).
struct MixedReplaceParts {
    /// What the body's bytes make, in order.
    enum Event: Equatable {
        /// A part begins: its head, and its response for the hook (`nil` if Foundation
        /// cannot make one).
        case part(ResponseHead, HTTPURLResponse?)
        /// Bytes of the part in progress.
        case bytes([UInt8])
    }

    private var parser: MixedReplaceParser
    /// The head that announced the parts.
    private let outer: ResponseHead
    private let url: URL

    /// The parts of the body `outer` announces from `url`, `nil` when it is not a
    /// mixed-replace body; no part may exceed `maximumPartBytes`.
    init?(_ outer: ResponseHead, url: URL, maximumPartBytes: Int64) {
        // Asked of every response: a type that is not multipart is refused from its bytes, with
        // no `String` made of it (about 1,000 instructions a response, docs/performance.md).
        guard outer.fields.firstValue(named: "Content-Type", satisfies: MixedReplaceParser.mayBeMixedReplace),
            let type = outer.value("Content-Type"), let boundary = MixedReplaceParser.boundary(contentType: type)
        else { return nil }
        parser = MixedReplaceParser(boundary: boundary, maximumPartBytes: maximumPartBytes)
        self.outer = outer
        self.url = url
    }

    /// What `bytes` of the body make; throws for a malformed part.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws -> [Event] {
        events(try parser.consume(bytes))
    }

    /// The body ended: the part in progress ends too, final boundary or not.
    mutating func finish() throws -> [Event] {
        events(try parser.finish())
    }

    private func events(_ found: [MixedReplaceParser.Event]) -> [Event] {
        found.compactMap { event in
            switch event {
            case .partHead(let fields):
                let head = MixedReplaceParser.head(of: fields, in: outer)
                return .part(head, head.makeResponse(url: url))
            case .partBody(let bytes):
                return .bytes(bytes)
            case .partEnd:
                return nil
            }
        }
    }
}
