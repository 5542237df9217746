/// One fuzz target: a name (its corpus is `Fuzz/Corpus/<name>/`) and a function that must
/// neither crash nor break the invariant it checks with ``require(_:_:)``.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable ([UInt8]) -> Void

    static let all: [FuzzTarget] = [
        .responseHead, .mediaType, .charset, .queryString, .headerValidation, .urlValidation,
        .multipart, .jsonNulls, .jsonParse, .xmlEvents, .xmlTree, .certificate, .pkcs12, .wwwAuthenticate,
        .eventStream, .setCookie,
    ]
}

/// Stops the process with a message libFuzzer records as a crash, with the input saved.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}
