/// A credential an ``AuthenticationInterceptor`` applies to requests: an OAuth token pair, a
/// signed session.
public protocol AuthenticationCredential: Sendable {
    /// Whether the credential must be refreshed before its next use (it expires soon, or did).
    var requiresRefresh: Bool { get }
}

/// How an ``AuthenticationInterceptor`` uses and refreshes one kind of credential
/// (Alamofire's `Authenticator`).
///
/// ```swift
/// struct OAuthAuthenticator: Authenticator {
///     func apply(_ credential: OAuthCredential, to request: inout URLRequest) {
///         request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
///     }
///     func refresh(_ credential: OAuthCredential, for manager: SessionManager) async throws -> OAuthCredential {
///         try await tokenService.refresh(credential.refreshToken)
///     }
/// }
/// ```
public protocol Authenticator: Sendable {
    /// The credential type.
    associatedtype Credential: AuthenticationCredential

    /// Sets `credential` on `request`, usually as the `Authorization` header.
    func apply(_ credential: Credential, to request: inout URLRequest)

    /// Fetches a new credential. Runs once however many requests need it: the others wait for
    /// its result. Throwing fails every waiting request. `manager` is the manager of the task
    /// that started the refresh; a request sent on it from inside `refresh` (awaited there)
    /// bypasses this interceptor: it is neither given the credential nor retried by it.
    func refresh(_ credential: Credential, for manager: SessionManager) async throws -> Credential

    /// Whether `response` to `request` says the credential was refused. Default: status 401.
    func didRequest(
        _ request: URLRequest,
        with response: HTTPURLResponse,
        failDueToAuthenticationError error: (any Error)?
    ) -> Bool

    /// Whether `request` went out with `credential`: `false` means the credential changed since
    /// (another request refreshed it), so the request is sent again at once, without a
    /// refresh. Default: its `Authorization` header equals the one ``apply(_:to:)`` sets.
    func isRequest(_ request: URLRequest, authenticatedWith credential: Credential) -> Bool
}

extension Authenticator {
    /// A 401 means the credential was refused.
    public func didRequest(
        _ request: URLRequest,
        with response: HTTPURLResponse,
        failDueToAuthenticationError error: (any Error)?
    ) -> Bool {
        response.statusCode == 401
    }

    /// Compares the `Authorization` header with the one ``apply(_:to:)`` sets for `credential`.
    public func isRequest(_ request: URLRequest, authenticatedWith credential: Credential) -> Bool {
        var expected = URLRequest(url: request.url ?? URL(fileURLWithPath: "/"))
        apply(credential, to: &expected)
        return request.value(forHTTPHeaderField: "Authorization") == expected.value(forHTTPHeaderField: "Authorization")
    }
}

/// Why an ``AuthenticationInterceptor`` failed a request; the task's error is a `GannetError`
/// (`.requestAdaptationFailed` or `.requestRetryFailed`) whose `underlyingError` is this.
public enum AuthenticationError: Error, Sendable, Hashable {
    /// The interceptor has no credential to apply (``AuthenticationInterceptor/credential`` is `nil`).
    case missingCredential
    /// More refreshes than the interceptor's ``RefreshWindow`` allows:
    /// the server refuses every new credential.
    case excessiveRefresh
}
