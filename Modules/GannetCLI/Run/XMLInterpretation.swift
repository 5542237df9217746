import Gannet

/// `--as xml`.
enum XMLInterpretation {
    static func render(_ data: Data, request: URLRequest, response: HTTPURLResponse, renderer: BodyRenderer) throws -> Data {
        throw CLIError("--as xml needs GannetXML, which this build does not include yet")
    }
}
