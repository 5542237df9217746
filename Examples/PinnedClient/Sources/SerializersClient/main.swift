// Gannet's serializers without its engine: the `GannetResponseSerialization` product only, on a
// response that came another way (here built in memory, as a URLSession or async-http-client
// user would have it). scripts/check-linkage.sh checks that it holds no GannetCore symbol and
// needs no libcurl, libssl, libcrypto or libpsl of its own.
import GannetResponseSerialization

let url = URL(string: "https://api.example.com/birds/1")!
let response = HTTPURLResponse(
    url: url,
    statusCode: 200,
    httpVersion: "HTTP/1.1",
    headerFields: ["Content-Type": "application/json"]
)
let input = ResponseInput(response: response, data: Data(#"{"name":"gannet"}"#.utf8))
let bird = try JSONResponseSerializer().serialize(input) as? [String: any Sendable]
print("SerializersClient: \(bird?["name"] as? String ?? "?")")
