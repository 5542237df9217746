import Foundation

@testable import GannetCore

extension FuzzTarget {
    /// `EventStreamParser` fed the input after its first byte, cut into reads at sizes the
    /// first byte picks. Invariants: every failure is a `StreamingError` of a limit; the reads'
    /// cuts change nothing (the same outputs, or the same failure, as one read); an event's type
    /// is never empty and holds no CR or LF, its data no CR, its ID no CR, LF or NUL; and the
    /// events written back out as a stream parse to the same events.
    static let eventStream = FuzzTarget(name: "event-stream") { bytes in
        guard let first = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        let limit = 512
        let whole = parse([body], limit: limit)
        var pieces: [[UInt8]] = []
        var offset = 0
        var step = 0
        while offset < body.count {
            let size = Int((first >> (step % 8)) & 7) + 1
            pieces.append(Array(body[offset..<min(offset + size, body.count)]))
            offset += size
            step += 1
        }
        let cut = parse(pieces, limit: limit)
        switch (whole, cut) {
        case (.success(let one), .success(let many)):
            require(one == many, "cut reads gave \(many), one read \(one)")
            check(one)
        case (.failure(let one), .failure(let many)):
            require(one.code == many.code, "cut reads failed with \(many.code), one read with \(one.code)")
        default:
            require(false, "one read gave \(whole), cut reads \(cut)")
        }
    }

    private static func parse(_ reads: [[UInt8]], limit: Int) -> Result<[EventStreamParser.Output], StreamingError> {
        var parser = EventStreamParser(maximumEventBytes: limit)
        var outputs: [EventStreamParser.Output] = []
        for read in reads {
            do {
                outputs += try parser.consume(Data(read))
            } catch let error as StreamingError {
                require(error.code == .lineTooLong || error.code == .eventTooLarge, "threw \(error.code)")
                return .failure(error)
            } catch {
                require(false, "threw \(type(of: error))")
            }
        }
        parser.finish()
        return .success(outputs)
    }

    private static func check(_ outputs: [EventStreamParser.Output]) {
        var events: [ServerSentEvent] = []
        for case .event(let event) in outputs {
            require(!event.type.isEmpty, "an empty event type")
            require(!event.type.contains("\r") && !event.type.contains("\n"), "type \(event.type.debugDescription)")
            require(!event.data.unicodeScalars.contains("\r"), "data \(event.data.debugDescription)")
            require(
                !event.lastEventID.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" },
                "id \(event.lastEventID.debugDescription)"
            )
            events.append(event)
        }
        // Written back out: every field explicit, each data line its own `data:` line.
        var text = ""
        for event in events {
            text += "id: \(event.lastEventID)\nevent: \(event.type)\n"
            for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) {
                text += "data: \(line)\n"
            }
            text += "\n"
        }
        var parser = EventStreamParser(maximumEventBytes: 1 << 20)
        let again = (try? parser.consume(Data(text.utf8))) ?? []
        let reparsed = again.compactMap { output -> ServerSentEvent? in
            if case .event(let event) = output { return event }
            return nil
        }
        require(reparsed == events, "written out and parsed again: \(reparsed), not \(events)")
    }
}
