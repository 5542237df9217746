/// HTTP caching as a private cache keeps it (RFC 9111), as pure decisions: whether a response
/// may be stored, whether a stored one answers a request, must be revalidated or cannot be used.
/// No I/O and no clock of its own (`now` is an argument), so every rule is tested without a
/// server; the engine asks it for every hop and carries out the answer (Transfer+Cache.swift,
/// docs/auth-cookies-cache.md).
enum CacheRules {
    /// How a request is answered, given what the cache holds.
    enum Lookup: Equatable {
        /// From the network, as if nothing were stored.
        case network
        /// From the network with these conditional fields; a `304` answers with the entry.
        case revalidate(StoredResponse, conditions: [Field])
        /// From the entry; nothing is sent.
        case serve(StoredResponse)
        /// Not at all: the policy forbids loading and nothing usable is stored.
        case unavailable
    }

    typealias Field = HTTPField

    /// Fields that describe one connection, never stored with a response (RFC 9110 §7.6.1), and
    /// the framing, which describes the wire rather than the stored body.
    static let unstoredFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
    ]

    /// Request fields that make a request conditional or partial: its caller handles the answer
    /// (a `304` or `206` of its own), so the cache neither answers nor stores it.
    static let callerConditionalFields: Set<String> = [
        "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range",
    ]

    // MARK: Answering

    /// How `policy` answers a request whose fields (as sent: the caller's, the session's and
    /// the cookie the engine adds) are `fields`, when the cache holds `entry` for its URL.
    static func lookup(
        policy: URLRequest.CachePolicy,
        fields: [Field],
        entry: StoredResponse?,
        now: Date
    ) -> Lookup {
        let dontLoad = policy == .returnCacheDataDontLoad
        switch policy {
        case .returnCacheDataElseLoad, .returnCacheDataDontLoad, .useProtocolCachePolicy:
            break
        default:
            // reloadIgnoringLocalCacheData, and the two policies NSURLSession treats as it.
            return .network
        }
        let conditional = fields.contains { callerConditionalFields.contains($0.name.lowercased()) }
        guard !conditional, let entry, entry.matchesVary(fields) else { return dontLoad ? .unavailable : .network }
        // "Use existing cache data, regardless of age or expiration date" (NSURLRequest).
        if policy != .useProtocolCachePolicy { return .serve(entry) }

        let request = Directives(fields.values(named: "Cache-Control"))
        let response = Directives(entry.fields.values(named: "Cache-Control"))
        let pragmaNoCache = fields.values(named: "Pragma").contains { $0.lowercased().contains("no-cache") }
        var mustRevalidate = request.has("no-cache") || response.has("no-cache")
        if pragmaNoCache && !request.has("max-age") { mustRevalidate = true }
        let age = currentAge(of: entry, now: now)
        if let maxAge = request.seconds("max-age"), age > maxAge { mustRevalidate = true }
        if !mustRevalidate, age < freshnessLifetime(of: entry) { return .serve(entry) }
        let conditions = conditionalFields(for: entry)
        return conditions.isEmpty ? .network : .revalidate(entry, conditions: conditions)
    }

    /// `If-None-Match` from the entry's `ETag`, `If-Modified-Since` from its `Last-Modified`
    /// (RFC 9111 §4.3.1); empty when it has neither.
    static func conditionalFields(for entry: StoredResponse) -> [Field] {
        var conditions: [Field] = []
        if let tag = entry.fields.value(named: "ETag") { conditions.append(Field(name: "If-None-Match", value: tag)) }
        if let modified = entry.fields.value(named: "Last-Modified") {
            conditions.append(Field(name: "If-Modified-Since", value: modified))
        }
        return conditions
    }

    // MARK: Storing

    /// Why a response is not stored, or `nil` when it may be. AFNetworking's conditions (those
    /// of NSURLSession): only a `GET` over http(s), only 2xx from the network (a `206` is part of
    /// a body), never `no-store` on the request or the response, never `Vary: *`, never a
    /// `multipart/x-mixed-replace` stream, and never more than 5% of the cache.
    static func refusal(
        method: String,
        url: URL,
        requestFields: [Field],
        statusCode: Int,
        responseFields: [Field],
        bodyBytes: Int64,
        capacity: Int
    ) -> String? {
        guard method.uppercased() == "GET" else { return "only GET responses are stored" }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "only http and https responses are stored"
        }
        guard (200...299).contains(statusCode), statusCode != 206 else { return "only 2xx responses are stored" }
        if requestFields.contains(where: { callerConditionalFields.contains($0.name.lowercased()) }) {
            return "the request was conditional or partial"
        }
        if Directives(requestFields.values(named: "Cache-Control")).has("no-store")
            || Directives(responseFields.values(named: "Cache-Control")).has("no-store")
        {
            return "no-store"
        }
        if varyingNames(responseFields) == nil { return "Vary: *" }
        if let type = responseFields.value(named: "Content-Type"),
            type.lowercased().hasPrefix("multipart/x-mixed-replace")
        {
            return "a multipart/x-mixed-replace stream"
        }
        // NSURLSession: "the response size is small enough to reasonably fit within the cache",
        // about 5% of it.
        guard bodyBytes <= Int64(capacity / 20) else { return "larger than 5% of the cache" }
        return nil
    }

    /// The capacity the 5% rule reads: the disk's when the cache has one, else its memory's.
    static func capacity(memory: Int, disk: Int) -> Int { disk > 0 ? disk : memory }

    /// The lower-cased names `Vary` lists, or `nil` for `Vary: *`, which no request matches.
    static func varyingNames(_ responseFields: [Field]) -> [String]? {
        var names: [String] = []
        for value in responseFields.values(named: "Vary") {
            for name in value.split(separator: ",") {
                let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
                if trimmed == "*" { return nil }
                if !trimmed.isEmpty { names.append(trimmed) }
            }
        }
        return names
    }

    /// What the request sent of each field `Vary` names, stored with the response: a later
    /// request is answered by it only if it sends the same (RFC 9111 §4.1). A field the request
    /// did not send is absent from the result.
    static func varyingValues(names: [String], requestFields: [Field]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            let sent = requestFields.values(named: name)
            if !sent.isEmpty { values[name] = normalized(sent) }
        }
        return values
    }

    /// Repeated fields combined and whitespace around commas dropped (RFC 9111 §4.1 allows it).
    static func normalized(_ values: [String]) -> String {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: ",")
    }

    // MARK: Freshness (RFC 9111 §4.2)

    /// How long the response stays fresh after it was generated: `max-age`, else `Expires`
    /// minus `Date` (an `Expires` that is not a date means already expired), else 0. Gannet
    /// applies no heuristic freshness: without either, a stored response is revalidated.
    static func freshnessLifetime(of entry: StoredResponse) -> TimeInterval {
        let directives = Directives(entry.fields.values(named: "Cache-Control"))
        if let maxAge = directives.seconds("max-age") { return maxAge }
        guard let expires = entry.fields.value(named: "Expires") else { return 0 }
        guard let expiry = RetryAfter.date(fromHTTPDate: expires, now: entry.responseTime) else { return 0 }
        return expiry.timeIntervalSince(date(of: entry))
    }

    /// The response's age now (RFC 9111 §4.2.3): what it had when it arrived (its `Age`, or the
    /// time since its `Date`, whichever is more, plus the request's round trip), plus the time
    /// it has been stored.
    static func currentAge(of entry: StoredResponse, now: Date) -> TimeInterval {
        let apparentAge = max(0, entry.responseTime.timeIntervalSince(date(of: entry)))
        let ageValue =
            entry.fields.value(named: "Age").flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let correctedInitialAge = max(apparentAge, max(0, ageValue) + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(entry.responseTime))
    }

    /// The origin's `Date`, else the time the response arrived (RFC 9110 §6.6.1).
    private static func date(of entry: StoredResponse) -> Date {
        entry.fields.value(named: "Date").flatMap { RetryAfter.date(fromHTTPDate: $0, now: entry.responseTime) }
            ?? entry.responseTime
    }

    // MARK: Cache-Control

    /// The directives of one or more `Cache-Control` values: names lower-cased, arguments
    /// unquoted (RFC 9111 §5.2).
    struct Directives {
        private var arguments: [String: String] = [:]

        init(_ values: [String]) {
            for value in values {
                for item in Self.split(value) {
                    let parts = item.split(separator: "=", maxSplits: 1).map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    guard let name = parts.first, !name.isEmpty else { continue }
                    var argument = parts.count > 1 ? parts[1] : ""
                    if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
                        argument = String(argument.dropFirst().dropLast())
                    }
                    // The first occurrence wins, as RFC 9111 §4.2.1 asks for duplicated max-age.
                    if arguments[name.lowercased()] == nil { arguments[name.lowercased()] = argument }
                }
            }
        }

        func has(_ name: String) -> Bool { arguments[name] != nil }

        /// A delta-seconds argument; an invalid one reads as 0, which is never fresh.
        func seconds(_ name: String) -> TimeInterval? {
            guard let argument = arguments[name] else { return nil }
            guard !argument.isEmpty, argument.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return 0 }
            return TimeInterval(argument) ?? .greatestFiniteMagnitude
        }

        /// Splits at commas outside quoted strings.
        private static func split(_ value: String) -> [String] {
            var items: [String] = []
            var current = ""
            var quoted = false
            var escaped = false
            for scalar in value.unicodeScalars {
                if escaped {
                    escaped = false
                } else if quoted && scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    quoted.toggle()
                } else if scalar == ",", !quoted {
                    items.append(current)
                    current = ""
                    continue
                }
                current.unicodeScalars.append(scalar)
            }
            items.append(current)
            return items
        }
    }
}

/// One header field, as the cache rules read them.
struct HTTPField: Equatable, Sendable {
    var name: String
    var value: String
}

extension Array where Element == HTTPField {
    /// Every value of `name`, compared case-insensitively, in order.
    func values(named name: String) -> [String] {
        filter { ASCII.equalsIgnoringCase($0.name, name) }.map(\.value)
    }

    /// The first value of `name`.
    func value(named name: String) -> String? {
        first { ASCII.equalsIgnoringCase($0.name, name) }?.value
    }
}
