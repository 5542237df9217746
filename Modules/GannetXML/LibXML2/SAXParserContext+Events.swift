internal import CLibXML2

/// What the SAX callbacks do once they have found their ``SAXParserContext``: turn libxml2's
/// UTF-8 pointers into Swift values, enforce the limits, and hand events to the sink.
extension SAXParserContext {
    /// Whether libxml2 is inside the document type declaration, where comments and processing
    /// instructions are not document content.
    private var isInSubset: Bool { (context?.pointee.inSubset ?? 0) != 0 }

    func startDocument() {
        guard !hasFailed else { return }
        do { try withSink { try $0.didStartDocument() } } catch { fail(error) }
    }

    func endDocument() {
        guard !hasFailed else { return }
        flushText()
        guard !hasFailed else { return }
        do { try withSink { try $0.didEndDocument() } } catch { fail(error) }
    }

    /// libxml2 without `XML_PARSE_HUGE` stops at 256 open elements by itself, with a generic
    /// error; the limit is applied here first so that the error is always the typed one.
    private var maximumDepth: Int { min(options.limits.maximumDepth, 256) }

    func startElement(
        localName: UnsafePointer<xmlChar>,
        prefix: UnsafePointer<xmlChar>?,
        uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int,
        namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard !hasFailed else { return }
        if state.pointee.text.kind != .none {
            flushText()
            guard !hasFailed else { return }
        }
        state.pointee.depth += 1
        if state.pointee.depth > maximumDepth {
            return fail(.depthLimitExceeded, "Elements are nested deeper than \(maximumDepth) levels")
        }
        if attributeCount > options.limits.maximumAttributes {
            return fail(.tooManyAttributes, "An element has more than \(options.limits.maximumAttributes) attributes")
        }
        var decoded = false
        let buffer: UnsafeMutablePointer<SAXAttribute>
        var count = 0
        if attributeCount > 0, let attributes {
            state.pointee.reserveAttributes(attributeCount)
            buffer = state.pointee.attributes
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            for index in 0..<attributeCount {
                let fields = attributes + index * 5
                guard let name = fields[0], let start = fields[3], let end = fields[4] else { continue }
                var attribute = SAXAttribute(
                    localName: name,
                    prefix: fields[1],
                    namespaceURI: fields[2],
                    value: UnsafeBufferPointer(start: start, count: end - start)
                )
                if memchr(start, 0x26, end - start) != nil {
                    if !decoded { state.pointee.decodedValues.removeAll(keepingCapacity: true) }
                    decoded = true
                    let offset = state.pointee.decodedValues.count
                    guard decodeReferences(attribute.value, into: &state.pointee.decodedValues, nesting: 0) else {
                        return
                    }
                    attribute.decodedRange = offset..<state.pointee.decodedValues.count
                }
                buffer[count] = attribute
                count += 1
            }
        } else {
            buffer = state.pointee.attributes
        }
        if decoded {
            // The decoded values are complete, so their buffer no longer moves while the sink runs.
            state.pointee.decodedValues.withUnsafeBufferPointer { values in
                for index in 0..<count {
                    if let range = buffer[index].decodedRange {
                        buffer[index].value = UnsafeBufferPointer(rebasing: values[range])
                    }
                }
                deliverStartElement(
                    localName: localName,
                    prefix: prefix,
                    uri: uri,
                    attributes: UnsafeBufferPointer(start: buffer, count: count),
                    namespaceCount: namespaceCount,
                    namespaces: namespaces
                )
            }
        } else {
            deliverStartElement(
                localName: localName,
                prefix: prefix,
                uri: uri,
                attributes: UnsafeBufferPointer(start: buffer, count: count),
                namespaceCount: namespaceCount,
                namespaces: namespaces
            )
        }
    }

    @inline(__always)
    private func deliverStartElement(
        localName: UnsafePointer<xmlChar>,
        prefix: UnsafePointer<xmlChar>?,
        uri: UnsafePointer<xmlChar>?,
        attributes: UnsafeBufferPointer<SAXAttribute>,
        namespaceCount: Int,
        namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        let tag = SAXStartTag(
            localName: localName,
            prefix: prefix,
            namespaceURI: uri,
            attributes: attributes,
            namespaceCount: namespaceCount,
            namespaces: namespaces,
            dictionary: state.pointee.dictionary
        )
        do { try withSink { try $0.didStartElement(tag) } } catch { fail(error) }
    }

    func endElement(localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) {
        guard !hasFailed else { return }
        if state.pointee.text.kind != .none {
            flushText()
            guard !hasFailed else { return }
        }
        state.pointee.depth -= 1
        let tag = SAXEndTag(
            localName: localName,
            prefix: prefix,
            namespaceURI: uri,
            dictionary: state.pointee.dictionary
        )
        do { try withSink { try $0.didEndElement(tag) } } catch { fail(error) }
    }

    @inline(__always)
    func appendText(_ bytes: UnsafePointer<xmlChar>, count: Int, kind: TextBuffer.Kind) {
        guard !hasFailed else { return }
        if state.pointee.text.kind != kind && state.pointee.text.kind != .none {
            flushText()
            guard !hasFailed else { return }
        }
        if state.pointee.text.count + count > options.limits.maximumTextBytes {
            return fail(.textTooLarge, "A text node is longer than \(options.limits.maximumTextBytes) bytes")
        }
        state.pointee.text.append(bytes, count: count, kind: kind)
    }

    /// Delivers the text collected so far as one event.
    func flushText() {
        let kind = state.pointee.text.kind
        if kind == .none { return }
        if kind == .text && options.dropsWhitespaceOnlyText && state.pointee.text.isWhitespaceOnly {
            state.pointee.text.discard()
            return
        }
        do {
            try withSink { try $0.didFindText(state.pointee.text.bytes, isCDATA: kind == .cdata) }
        } catch {
            fail(error)
        }
        state.pointee.text.discard()
    }

    func comment(_ value: UnsafePointer<xmlChar>) {
        guard !hasFailed, !isInSubset else { return }
        flushText()
        guard !hasFailed else { return }
        let length = strlen(value)
        if length > options.limits.maximumTextBytes {
            return fail(.textTooLarge, "A comment is longer than \(options.limits.maximumTextBytes) bytes")
        }
        do {
            try withSink { try $0.didFindComment(UnsafeBufferPointer(start: value, count: length)) }
        } catch {
            fail(error)
        }
    }

    func processingInstruction(target: UnsafePointer<xmlChar>, data: UnsafePointer<xmlChar>?) {
        guard !hasFailed, !isInSubset else { return }
        flushText()
        guard !hasFailed else { return }
        do { try withSink { try $0.didFindProcessingInstruction(target: target, data: data) } } catch { fail(error) }
    }

    // MARK: Errors

    /// libxml2's structured error: warnings are ignored, anything else ends the parse.
    func structuredError(_ error: UnsafePointer<xmlError>) {
        let error = error.pointee
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, !hasFailed else { return }
        let nativeCode = Int(error.code)
        var message = error.message.map { String(cString: $0) } ?? "libxml2 error \(nativeCode)"
        var line = Int(error.line)
        var column = Int(error.int2)
        if line == 0 {
            // Errors from libxml2's encoding and memory layers carry no position.
            (line, column) = position
        }
        let code: XMLError.Code
        switch xmlParserErrors(rawValue: UInt32(error.code)) {
        case _ where isBlankSoFar:
            // libxml2 reports input without any markup variously ("Document is empty", "Extra
            // content at the end of the document"); without a single non-blank byte it is empty.
            code = .emptyDocument
            message = "The document is empty"
        case XML_ERR_UNDECLARED_ENTITY, XML_WAR_UNDECLARED_ENTITY:
            code = .undeclaredEntity
        case XML_ERR_UNSUPPORTED_ENCODING:
            code = .unsupportedEncoding
        case XML_ERR_ENTITY_LOOP:
            code = .entityExpansionLimitExceeded
        default:
            code = .malformed
        }
        fail(XMLError(code, message, line: line, column: column, nativeCode: nativeCode))
    }
}
