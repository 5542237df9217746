internal import CLibXML2

/// Entity declarations and references: refused by default, expanded under caps for trusted
/// input. libxml2 never sees an entity Gannet did not hand it, so it never loads anything.
extension SAXParserContext {
    /// `<!ENTITY …>` in the internal subset, general or parameter, internal or external.
    func entityDeclaration(name: UnsafePointer<xmlChar>, type: Int32, content: UnsafePointer<xmlChar>?) {
        guard !hasFailed else { return }
        let entityName = String(cString: name)
        guard let entities else {
            return fail(
                .entityDeclarationRefused,
                "The document declares the entity '\(entityName)'; entity declarations are refused"
            )
        }
        switch xmlEntityType(rawValue: UInt32(bitPattern: type)) {
        case XML_INTERNAL_GENERAL_ENTITY:
            guard let content else { return }
            entities.declare(name: name, content: content)
        case XML_INTERNAL_PARAMETER_ENTITY, XML_EXTERNAL_PARAMETER_ENTITY:
            fail(
                .entityDeclarationRefused,
                "The document declares the parameter entity '%\(entityName)'; parameter entities are refused"
            )
        default:
            fail(
                .entityDeclarationRefused,
                "The document declares the external entity '\(entityName)'; external entities are refused"
            )
        }
    }

    /// `<!ENTITY name SYSTEM "…" NDATA notation>`: always refused.
    func unparsedEntityDeclaration(name: UnsafePointer<xmlChar>) {
        guard !hasFailed else { return }
        fail(
            .entityDeclarationRefused,
            "The document declares the unparsed entity '\(String(cString: name))'; external entities are refused"
        )
    }

    /// libxml2 asking what `&name;` refers to (predefined entities never get here). Each
    /// answer in the document counts as one expansion of the entity's replacement text; inside
    /// the DTD libxml2 only looks a declaration up again to attach its raw text.
    func entity(named name: UnsafePointer<xmlChar>) -> xmlEntityPtr? {
        guard !hasFailed, let entities, let entity = entities.entity(named: name) else { return nil }
        if (context?.pointee.inSubset ?? 0) != 0 { return entity }
        guard countExpansion(bytes: Int(entity.pointee.length)) else { return nil }
        return entity
    }

    /// Counts one expansion of `bytes` replacement bytes; fails and returns `false` past the caps.
    func countExpansion(bytes: Int) -> Bool {
        state.pointee.entityExpansions += 1
        state.pointee.entityExpansionBytes += bytes
        let limits = options.limits
        if state.pointee.entityExpansions > limits.maximumEntityExpansions {
            fail(
                .entityExpansionLimitExceeded,
                "More than \(limits.maximumEntityExpansions) entity references were expanded"
            )
            return false
        }
        if state.pointee.entityExpansionBytes > limits.maximumEntityExpansionBytes {
            fail(
                .entityExpansionLimitExceeded,
                "Entity expansion produced more than \(limits.maximumEntityExpansionBytes) bytes"
            )
            return false
        }
        return true
    }

    // Attribute values arrive without entity substitution: libxml2 has already normalized
    // white space and replaced character references, except that it writes each `&` as
    // `&#38;` and leaves `&name;` for declared entities. `decodeReferences` finishes the job.

    /// Replaces `&#N;`, `&#xH;`, the predefined entities and declared internal entities in
    /// `input`. Replacement text of declared entities is decoded recursively with its white
    /// space normalized to spaces (XML 1.0 §3.3.3).
    func decodeReferences(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], nesting: Int) -> Bool {
        // libxml2's own entity nesting ceiling.
        if nesting > 40 {
            fail(.entityExpansionLimitExceeded, "Entity references are nested more than 40 deep")
            return false
        }
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == 0x26 else {
                if nesting > 0 && (byte == 0x09 || byte == 0x0A || byte == 0x0D) {
                    output.append(0x20)
                } else {
                    output.append(byte)
                }
                index += 1
                continue
            }
            guard let semicolon = input[(index + 1)...].firstIndex(of: 0x3B) else {
                output.append(contentsOf: input[index...])
                break
            }
            let reference = UnsafeBufferPointer(rebasing: input[(index + 1)..<semicolon])
            if !appendReplacement(of: reference, into: &output, nesting: nesting) {
                if hasFailed { return false }
                output.append(contentsOf: input[index...semicolon])
            }
            index = semicolon + 1
        }
        return true
    }

    /// Appends what the reference (the text between `&` and `;`) stands for; `false` when it is
    /// not one Gannet can resolve.
    private func appendReplacement(
        of reference: UnsafeBufferPointer<UInt8>,
        into output: inout [UInt8],
        nesting: Int
    ) -> Bool {
        if reference.first == 0x23 {
            let digits = reference.dropFirst()
            let scalarValue: UInt32?
            if digits.first == 0x78 {
                scalarValue = UInt32(String(decoding: digits.dropFirst(), as: UTF8.self), radix: 16)
            } else {
                scalarValue = UInt32(String(decoding: digits, as: UTF8.self), radix: 10)
            }
            guard let scalarValue, let scalar = Unicode.Scalar(scalarValue) else { return false }
            output.append(contentsOf: String(Character(scalar)).utf8)
            return true
        }
        switch String(decoding: reference, as: UTF8.self) {
        case "amp":
            output.append(0x26)
            return true
        case "lt":
            output.append(0x3C)
            return true
        case "gt":
            output.append(0x3E)
            return true
        case "quot":
            output.append(0x22)
            return true
        case "apos":
            output.append(0x27)
            return true
        default: break
        }
        guard let entities else { return false }
        let name = Array(reference) + [0]
        guard let entity = name.withUnsafeBufferPointer({ entities.entity(named: $0.baseAddress!) }),
            let content = entity.pointee.content
        else { return false }
        let length = Int(entity.pointee.length)
        guard countExpansion(bytes: length) else { return false }
        return decodeReferences(UnsafeBufferPointer(start: content, count: length), into: &output, nesting: nesting + 1)
    }
}
