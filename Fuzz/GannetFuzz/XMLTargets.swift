import Foundation
import GannetXML

extension FuzzTarget {
    /// `XMLStreamParser`, the document whole and cut in two at a fuzzed point. Invariants: a
    /// failure is an `XMLError`; when both parses succeed they report the same events (adjacent
    /// text joined, since libxml2 may split text at a chunk boundary).
    static let xmlEvents = FuzzTarget(name: "xml-events") { bytes in
        guard let first = bytes.first else { return }
        let document = bytes.dropFirst()
        let cut = document.isEmpty ? 0 : Int(first) % (document.count + 1)
        let whole = events(feeding: [Array(document)])
        let halves = events(feeding: [Array(document.prefix(cut)), Array(document.dropFirst(cut))])
        if let whole, let halves {
            require(whole == halves, "cutting at \(cut) changed the events")
        }
    }

    /// `XMLDocument.parse`. Invariants: a failure is an `XMLError`; the tree holds one element
    /// per start-element event of the stream parser.
    static let xmlTree = FuzzTarget(name: "xml-tree") { bytes in
        let document: XMLDocument
        do {
            document = try XMLDocument.parse(data: bytes)
        } catch {
            require(error is XMLError, "tree threw \(type(of: error))")
            return
        }
        guard let recorded = events(feeding: [bytes]) else {
            require(false, "the tree parsed a document the stream parser refused")
            return
        }
        let starts = recorded.filter { if case .startElement = $0 { true } else { false } }.count
        require(document.root.map(elementCount) == starts, "tree and events disagree")
        _ = document.root?.description
    }

    private static func elementCount(_ element: XMLElement) -> Int {
        1 + element.elements.reduce(0) { $0 + elementCount($1) }
    }

    /// The events of a parse fed `chunks`, text runs joined; `nil` when it failed.
    private static func events(feeding chunks: [[UInt8]]) -> [XMLEvent]? {
        let parser = XMLStreamParser(handler: XMLEventRecorder())
        do {
            for chunk in chunks { try parser.feed(chunk) }
            try parser.finish()
        } catch {
            require(error is XMLError, "stream threw \(type(of: error))")
            return nil
        }
        var joined: [XMLEvent] = []
        for event in parser.handler.events {
            if case .characters(let more) = event, case .characters(let text) = joined.last {
                joined[joined.count - 1] = .characters(text + more)
            } else if case .cdata(let more) = event, case .cdata(let text) = joined.last {
                joined[joined.count - 1] = .cdata(text + more)
            } else {
                joined.append(event)
            }
        }
        return joined
    }
}
