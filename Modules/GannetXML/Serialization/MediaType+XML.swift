extension MediaType {
    /// `application/xml` (RFC 7303).
    public static let xml: MediaType = "application/xml"
    /// `text/xml` (RFC 7303).
    public static let textXML: MediaType = "text/xml"
    /// Every `application/…+xml` type: Atom, RSS, XHTML, vendor types (RFC 6839 §4.1).
    public static let anyXMLSuffix: MediaType = "application/*+xml"

    /// The types Gannet's XML serializers accept by default: `application/xml`, `text/xml`, and
    /// the `+xml` types under `application/`, `text/` and `image/` (`image/svg+xml`).
    public static var xmlTypes: [MediaType] {
        [.xml, .textXML, .anyXMLSuffix, "text/*+xml", "image/*+xml"]
    }
}
