/// How a parser treats hostile or unusual input. The defaults are safe for documents from
/// any server; change them only for input you trust.
///
/// Whatever the options, Gannet never loads anything from the network or the file system:
/// no external DTD, no external entity, no XInclude (libxml2 runs with `XML_PARSE_NONET` and
/// without `XML_PARSE_NOENT`, `XML_PARSE_DTDLOAD` or `XML_PARSE_HUGE`).
///
/// ```swift
/// var options = XMLParsingOptions()
/// options.limits.maximumDocumentBytes = nil          // a multi-gigabyte feed, streamed
/// options.allowsInternalEntities = true              // a trusted document with a DTD
/// ```
public struct XMLParsingOptions: Sendable, Hashable {
    /// Sizes and counts a document may reach before parsing stops with an ``XMLError``.
    public var limits = Limits()

    /// Whether `<!ENTITY name "replacement">` declarations in the internal subset are
    /// accepted and their references expanded. `false` by default: any entity declaration
    /// fails with ``XMLError/Code/entityDeclarationRefused``, which stops billion-laughs and
    /// quadratic blow-up documents at their first declaration.
    ///
    /// Set it only for trusted input. Even then, expansion is capped by
    /// ``Limits/maximumEntityExpansions`` and ``Limits/maximumEntityExpansionBytes``, and
    /// external entities (`SYSTEM`/`PUBLIC`), unparsed entities and parameter entities stay
    /// refused. The five predefined entities (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`) and
    /// character references (`&#233;`, `&#xE9;`) work whatever this option says.
    public var allowsInternalEntities = false

    /// Whether text made only of spaces, tabs and line breaks (the indentation between
    /// elements) is dropped instead of delivered. `false` by default, as XML requires; `true`
    /// saves work when only the elements and their text matter.
    public var dropsWhitespaceOnlyText = false

    /// Creates the default options: every limit at its default, entity declarations refused.
    public init() {}

    /// The default options.
    public static var `default`: XMLParsingOptions { XMLParsingOptions() }

    /// Limits that bound the time and memory one document can take.
    public struct Limits: Sendable, Hashable {
        /// The deepest element nesting allowed. Default 256, which is also libxml2's own
        /// ceiling without `XML_PARSE_HUGE` (Gannet never sets it), so larger values act as 256.
        public var maximumDepth = 256
        /// The most input bytes one document may have; `nil` for no limit. Default 100 MiB,
        /// the size a `SessionConfiguration.Limits` keeps in memory. The event parser runs in
        /// bounded memory whatever the size, so a streaming consumer may lift this; a tree
        /// grows with the document.
        public var maximumDocumentBytes: Int64? = 100 * 1024 * 1024
        /// The most attributes on one start tag (namespace declarations not counted). Default 256.
        public var maximumAttributes = 256
        /// The longest single text node, CDATA section or comment, in UTF-8 bytes. Default
        /// 10,000,000, the length libxml2 itself allows for one attribute value, comment or
        /// processing instruction (those stay capped there even if this is raised).
        public var maximumTextBytes = 10_000_000
        /// With ``XMLParsingOptions/allowsInternalEntities``: the most entity references
        /// expanded in one document, nested references included. Default 10,000.
        public var maximumEntityExpansions = 10_000
        /// With ``XMLParsingOptions/allowsInternalEntities``: the most replacement-text bytes
        /// all expansions together may produce. Default 1 MiB.
        public var maximumEntityExpansionBytes = 1024 * 1024

        /// Creates the default limits.
        public init() {}
    }
}
