internal import CLibXML2

/// The internal general entities a trusted document declared, when
/// ``XMLParsingOptions/allowsInternalEntities`` is on.
///
/// libxml2 asks for entities through the `getEntity` SAX callback and needs real `xmlEntity`
/// structures back; a private document with an internal subset owns them, so libxml2 allocates
/// and frees them itself. Only `XML_INTERNAL_GENERAL_ENTITY` is ever stored: nothing here can
/// point outside the document.
final class EntityTable {
    private let document: xmlDocPtr
    private let libxml2: LibXML2.Functions
    private(set) var declarationCount = 0

    /// `nil` when libxml2 cannot be loaded (the parser then fails with
    /// ``XMLError/Code/libraryUnavailable`` before any entity is declared) or allocate.
    init?() {
        guard let libxml2 = try? LibXML2.load(), let document = libxml2.newDoc("1.0") else { return nil }
        guard libxml2.createIntSubset(document, "gannet", nil, nil) != nil else {
            libxml2.freeDoc(document)
            return nil
        }
        self.document = document
        self.libxml2 = libxml2
    }

    deinit { libxml2.freeDoc(document) }

    /// Records `name` → `content`. A second declaration of a name is ignored, as XML 1.0
    /// §4.2 requires (the first binding wins).
    func declare(name: UnsafePointer<xmlChar>, content: UnsafePointer<xmlChar>) {
        if libxml2.addDocEntity(document, name, Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), nil, nil, content) != nil {
            declarationCount += 1
        }
    }

    /// The declared entity called `name`, or `nil`.
    func entity(named name: UnsafePointer<xmlChar>) -> xmlEntityPtr? {
        guard let entity = libxml2.getDocEntity(document, name),
            entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY
        else { return nil }
        return entity
    }
}
