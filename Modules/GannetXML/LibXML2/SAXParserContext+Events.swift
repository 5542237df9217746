internal import CLibXML2

/// What the SAX callbacks do once they have found their ``SAXParserContext``: turn libxml2's
/// UTF-8 pointers into Swift values, enforce the limits, and hand events to the sink.
extension SAXParserContext {
    @inline(__always)
    private var dictionary: xmlDictPtr? { context?.pointee.dict }

    /// Whether libxml2 is inside the document type declaration, where comments and processing
    /// instructions are not document content.
    private var isInSubset: Bool { (context?.pointee.inSubset ?? 0) != 0 }

    func startDocument() {
        guard !hasFailed else { return }
        do { try sink.didStartDocument() } catch { fail(error) }
    }

    func endDocument() {
        guard !hasFailed else { return }
        flushText()
        guard !hasFailed else { return }
        do { try sink.didEndDocument() } catch { fail(error) }
    }

    func startElement(
        localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard !hasFailed else { return }
        if text.kind != .none {
            flushText()
            guard !hasFailed else { return }
        }
        depth += 1
        if depth > options.limits.maximumDepth {
            return fail(.depthLimitExceeded, "Elements are nested deeper than \(options.limits.maximumDepth) levels")
        }
        if attributeCount > options.limits.maximumAttributes {
            return fail(.tooManyAttributes, "An element has more than \(options.limits.maximumAttributes) attributes")
        }
        let dictionary = dictionary
        let name = names.name(localName, dictionary: dictionary)
        let prefixName = names.optionalName(prefix, dictionary: dictionary)
        let namespaceURI = names.optionalName(uri, dictionary: dictionary)

        var attributeList: [XMLAttribute] = []
        if attributeCount > 0, let attributes {
            attributeList.reserveCapacity(attributeCount)
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            for index in 0..<attributeCount {
                let fields = attributes + index * 5
                guard let attributeName = fields[0], let valueStart = fields[3], let valueEnd = fields[4] else { continue }
                guard let value = attributeValue(from: valueStart, to: valueEnd) else { return }
                attributeList.append(XMLAttribute(
                    name: names.name(attributeName, dictionary: dictionary),
                    prefix: names.optionalName(fields[1], dictionary: dictionary),
                    namespaceURI: names.optionalName(fields[2], dictionary: dictionary),
                    value: value))
            }
        }

        var declarations: [XMLNamespaceDeclaration] = []
        if namespaceCount > 0, let namespaces {
            declarations.reserveCapacity(namespaceCount)
            // Two pointers per declaration: prefix (NULL for the default namespace), URI.
            for index in 0..<namespaceCount {
                let fields = namespaces + index * 2
                declarations.append(XMLNamespaceDeclaration(
                    prefix: names.optionalName(fields[0], dictionary: dictionary),
                    uri: names.optionalName(fields[1], dictionary: dictionary) ?? ""))
            }
        }

        do {
            try sink.didStartElement(
                name: name, prefix: prefixName, namespaceURI: namespaceURI,
                attributes: attributeList, namespaces: declarations)
        } catch {
            fail(error)
        }
    }

    func endElement(localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) {
        guard !hasFailed else { return }
        if text.kind != .none {
            flushText()
            guard !hasFailed else { return }
        }
        depth -= 1
        let dictionary = dictionary
        do {
            try sink.didEndElement(
                name: names.name(localName, dictionary: dictionary),
                prefix: names.optionalName(prefix, dictionary: dictionary),
                namespaceURI: names.optionalName(uri, dictionary: dictionary))
        } catch {
            fail(error)
        }
    }

    @inline(__always)
    func appendText(_ bytes: UnsafePointer<xmlChar>, count: Int, kind: TextBuffer.Kind) {
        guard !hasFailed else { return }
        if text.kind != kind && text.kind != .none {
            flushText()
            guard !hasFailed else { return }
        }
        if text.count + count > options.limits.maximumTextBytes {
            return fail(.textTooLarge, "A text node is longer than \(options.limits.maximumTextBytes) bytes")
        }
        text.append(bytes, count: count, kind: kind)
    }

    /// Delivers the text collected so far as one event.
    func flushText() {
        let kind = text.kind
        if kind == .none { return }
        if kind == .text && options.dropsWhitespaceOnlyText && text.isWhitespaceOnly {
            text.discard()
            return
        }
        let string = text.take()
        do {
            if kind == .cdata {
                try sink.didFindCDATA(string)
            } else {
                try sink.didFindCharacters(string)
            }
        } catch {
            fail(error)
        }
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
            try sink.didFindComment(String(decoding: UnsafeBufferPointer(start: value, count: length), as: UTF8.self))
        } catch {
            fail(error)
        }
    }

    func processingInstruction(target: UnsafePointer<xmlChar>, data: UnsafePointer<xmlChar>?) {
        guard !hasFailed, !isInSubset else { return }
        flushText()
        guard !hasFailed else { return }
        let targetString = String(cString: target)
        let dataString = data.map { String(cString: $0) } ?? ""
        do { try sink.didFindProcessingInstruction(target: targetString, data: dataString) } catch { fail(error) }
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
        case XML_ERR_DOCUMENT_EMPTY where isBlankSoFar:
            // libxml2 uses this code for "Start tag expected" too; only input without any
            // markup or text is empty.
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
