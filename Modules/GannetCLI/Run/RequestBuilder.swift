import Gannet

/// Turns an ``Invocation`` into a `URLRequest` with Gannet's request serializers: a JSON
/// object through `JSONRequestSerializer`, a form through `HTTPRequestSerializer`, a streamed
/// multipart body through `MultipartRequestSerializer`; a raw body (stdin, `--raw`, `@FILE`)
/// as it is.
enum RequestBuilder {
    /// `Accept` for JSON requests, as httpie sends it.
    static let jsonAccept = "application/json, */*;q=0.5"

    /// `rawBody` is the loaded ``Invocation/body``, if there is one.
    static func build(_ invocation: Invocation, rawBody: RawBody? = nil) throws -> URLRequest {
        let options = invocation.options
        var request = URLRequest(url: try url(invocation.url, appending: queryItems(invocation.items)))
        request.httpMethod = invocation.method
        // The engine's idle timeout is the request's own when it has one (URLRequest's default
        // is 60 s), so --timeout goes on the request.
        if let timeout = options.timeout { request.timeoutInterval = timeout }
        try applyHeaders(invocation, to: &request)

        var configuration = RequestSerializerConfiguration()
        // The request, not the serializer, decides where data goes: httpie sends a body with
        // any method, GET included.
        configuration.methodsEncodingParametersInURI = []
        configuration.arrayEncoding = .noBrackets
        configuration.setValue(nil, forHTTPHeaderField: "Accept-Language")
        configuration.setValue(nil, forHTTPHeaderField: "User-Agent")
        // `--auth`, as `--auth-type` says; an explicit Authorization item wins. A password
        // missing from USER was asked for before the request is built (PasswordPrompt).
        if let auth = options.auth, request.value(forHTTPHeaderField: "Authorization") == nil {
            switch options.authType {
            case .basic:
                // RFC 7617: the user name ends at the first colon.
                let colon = auth.firstIndex(of: ":") ?? auth.endIndex
                request.setValue(
                    DefaultHeaders.basicAuthorization(
                        username: String(auth[..<colon]),
                        password: String(auth[colon...].dropFirst())
                    ),
                    forHTTPHeaderField: "Authorization"
                )
            case .bearer:
                request.setValue("Bearer \(auth)", forHTTPHeaderField: "Authorization")
            case .digest, .ntlm:
                // Answered after the server's 401 (RequestCommand sets the manager's credential).
                break
            }
        }

        if let body = invocation.body, let rawBody {
            return try attach(rawBody, of: body, to: request, options: options, configuration: configuration)
        }

        let dataItems = invocation.items.filter(\.isData)
        let files = dataItems.compactMap { item -> (name: String, path: String, mimeType: String?)? in
            if case .file(let name, let path, let mimeType) = item { return (name, path, mimeType) }
            return nil
        }
        let mode = options.bodyMode == .form && !files.isEmpty ? .multipart : options.bodyMode
        if mode == .json, let name = files.first?.name {
            throw CLIError.usage("file fields need --form or --multipart (perhaps you meant --form?): \(name)")
        }
        if mode != .json {
            for case .rawJSON(let name, _) in dataItems {
                throw CLIError.usage("the raw JSON field \(name):= needs a JSON body, not --form or --multipart")
            }
            for case .rawJSONFromFile(let name, _) in dataItems {
                throw CLIError.usage("the raw JSON field \(name):=@ needs a JSON body, not --form or --multipart")
            }
        }
        let fields = try fieldParameters(dataItems)

        switch mode {
        case .json:
            if options.explicitJSON || !dataItems.isEmpty, request.value(forHTTPHeaderField: "Accept") == "*/*" {
                request.setValue(jsonAccept, forHTTPHeaderField: "Accept")
            }
            guard !dataItems.isEmpty else {
                return try HTTPRequestSerializer(configuration: configuration).request(byEncoding: nil, into: request)
            }
            let serializer = JSONRequestSerializer(writingOptions: [.sortedKeys], configuration: configuration)
            return try serializer.request(byEncoding: fields, into: request)
        case .form:
            return try HTTPRequestSerializer(configuration: configuration).request(
                byEncoding: dataItems.isEmpty ? nil : fields,
                into: request
            )
        case .multipart:
            let serializer = MultipartRequestSerializer(configuration: configuration) { formData in
                for file in files {
                    let url = URL(fileURLWithPath: file.path)
                    try formData.appendPart(
                        fileURL: url,
                        name: file.name,
                        fileName: url.lastPathComponent,
                        mimeType: file.mimeType ?? MIMEType.forPathExtension(url.pathExtension)
                    )
                }
            }
            return try serializer.request(byEncoding: fields, into: request)
        }
    }

    /// A raw body with its `Content-Type` (unless a header item set one) and, for a stream of
    /// known size, its `Content-Length`.
    static func attach(
        _ rawBody: RawBody,
        of body: Invocation.Body,
        to request: URLRequest,
        options: Options,
        configuration: RequestSerializerConfiguration
    ) throws -> URLRequest {
        var request = try HTTPRequestSerializer(configuration: configuration).request(byEncoding: nil, into: request)
        switch rawBody {
        case .empty:
            return request
        case .data(let data):
            request.httpBody = data
        case .stream(let stream, let length):
            request.httpBodyStream = stream
            if let length { request.setValue(String(length), forHTTPHeaderField: "Content-Length") }
        }
        if request.value(forHTTPHeaderField: "Content-Type") == nil,
            let type = RawBody.contentType(for: body, options: options)
        {
            request.setValue(type, forHTTPHeaderField: "Content-Type")
            if type == "application/json", request.value(forHTTPHeaderField: "Accept") == "*/*" {
                request.setValue(jsonAccept, forHTTPHeaderField: "Accept")
            }
        }
        return request
    }

    /// Data fields as parameters: strings, raw JSON values, or arrays of them when a name repeats.
    static func fieldParameters(_ items: [RequestItem]) throws -> Parameters {
        var order: [String] = []
        var values: [String: [any Sendable]] = [:]
        func add(_ name: String, _ value: any Sendable) {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        for item in items {
            switch item {
            case .dataString(let name, let value):
                add(name, value)
            case .dataStringFromFile(let name, let path):
                add(name, try readText(path))
            case .rawJSON(let name, let json):
                add(name, try parseJSON(json, field: name))
            case .rawJSONFromFile(let name, let path):
                add(name, try parseJSON(try readText(path), field: name))
            default:
                continue
            }
        }
        var parameters: Parameters = [:]
        for name in order {
            let list = values[name] ?? []
            parameters[name] = list.count == 1 ? list[0] : list
        }
        return parameters
    }

    /// `name==value` items, in order.
    static func queryItems(_ items: [RequestItem]) -> [(String, String)] {
        items.compactMap { if case .query(let name, let value) = $0 { (name, value) } else { nil } }
    }

    /// `url` with `pairs` appended to its query, escaped as RFC 3986 query components (only
    /// unreserved characters stay), in the order given.
    static func url(_ url: URL, appending pairs: [(String, String)]) throws -> URL {
        guard !pairs.isEmpty else { return url }
        let query = pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
        var text = url.absoluteString
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        text += (url.query == nil ? "?" : (text.hasSuffix("&") || text.hasSuffix("?") ? "" : "&")) + query + fragment
        guard let result = URL(string: text) else { throw CLIError("cannot add the query to \(url.absoluteString)") }
        return result
    }

    /// RFC 3986 query-component escaping (core's `PercentEscaping`), `/` and `?` included.
    static func escape(_ text: String) -> String {
        PercentEscaping.escape(bytes: text.utf8, spaceAsPlus: false, keepingSlashAndQuestionMark: false)
    }

    /// Default headers (`User-Agent`, `Accept`), then the header items: the first item of a
    /// name replaces a default, later ones add values; `Name:` removes the header.
    static func applyHeaders(_ invocation: Invocation, to request: inout URLRequest) throws {
        request.setValue("gannet/\(GannetVersion.current)", forHTTPHeaderField: "User-Agent")
        request.setValue("*/*", forHTTPHeaderField: "Accept")
        var seen: Set<String> = []
        for item in invocation.items {
            switch item {
            case .header(let name, let value):
                guard RequestValidation.isValidHeaderName(name) else {
                    throw CLIError.usage("\(name.debugDescription) is not a valid header name")
                }
                guard RequestValidation.isValidHeaderValue(value) else {
                    throw CLIError.usage("the value of header \(name) holds a control character")
                }
                if seen.insert(name.lowercased()).inserted {
                    request.setValue(value, forHTTPHeaderField: name)
                } else {
                    request.addValue(value, forHTTPHeaderField: name)
                }
            case .removeHeader(let name):
                request.setValue(nil, forHTTPHeaderField: name)
                seen.insert(name.lowercased())
            default:
                continue
            }
        }
    }

    static func readText(_ path: String) throws -> String {
        do {
            return try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw CLIError("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// A raw JSON value as JSONSerialization reads it, made `Sendable` (the response
    /// serializer's `JSONTree`).
    static func parseJSON(_ text: String, field: String) throws -> any Sendable {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        } catch {
            throw CLIError.usage("\(field):= holds invalid JSON: \(text.prefix(80).debugDescription)")
        }
        return JSONTree.sendable(object, removingNulls: false)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
