import Foundation
import Gannet

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// docs/interceptors.md's examples, kept here so that they keep compiling. Not tests.

private struct APIKey: RequestInterceptor {
    func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        var request = request
        request.setValue("secret", forHTTPHeaderField: "X-API-Key")
        return request
    }
}

private struct OAuthCredential: AuthenticationCredential {
    let accessToken: String
    let refreshToken: String
    let expiration: Date
    var requiresRefresh: Bool { Date(timeIntervalSinceNow: 60) > expiration }
}

private struct OAuthAuthenticator: Authenticator {
    let tokenURL: URL

    func apply(_ credential: OAuthCredential, to request: inout URLRequest) {
        request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
    }

    func refresh(_ credential: OAuthCredential, for manager: SessionManager) async throws -> OAuthCredential {
        var request = URLRequest(url: tokenURL)
        request.httpMethod = "POST"
        request.httpBody = Data("grant_type=refresh_token&refresh_token=\(credential.refreshToken)".utf8)
        let (data, _) = try await manager.data(for: request)
        let token = try JSONDecoder().decode(TokenResponse.self, from: data)
        return OAuthCredential(
            accessToken: token.access_token,
            refreshToken: token.refresh_token,
            expiration: Date(timeIntervalSinceNow: token.expires_in)
        )
    }
}

private struct TokenResponse: Decodable {
    let access_token: String
    let refresh_token: String
    let expires_in: Double
}

private func documentedUsage(request: URLRequest, tokenURL: URL, storedCredential: OAuthCredential) async throws {
    let manager = SessionManager()
    manager.interceptor = RetryPolicy()
    let task = manager.dataTask(
        with: request,
        serializer: .passthrough,
        interceptor: APIKey()
    ) { response in
        print(response.statusCode ?? 0)
    }
    task.resume()

    let authentication = AuthenticationInterceptor(
        authenticator: OAuthAuthenticator(tokenURL: tokenURL),
        credential: storedCredential
    )
    manager.interceptor = authentication

    let http = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1/"))
    http.interceptor = Interceptor(interceptors: [RetryPolicy(), authentication])
    let users = try await http.response(
        method: "GET",
        "users",
        serializer: JSONResponseSerializer(),
        interceptor: APIKey()
    )
    _ = users
    manager.interceptor = RetryPolicy(retryLimit: 4, retryableHTTPMethods: ["GET", "POST"])
}
