import Testing
import TestSupport
import WalletWatchNet

/// http and https only, TLS verification, and secrets kept out of errors and logs.
@Suite struct SecurityTests {
    @Test(arguments: [("/redirect-file", "file:///etc/passwd"), ("/redirect-ftp", "ftp://127.0.0.1/secret.txt")])
    func refusesARedirectToAnotherScheme(path: String, target: String) async throws {
        try await withTestServer { server in
            let client = makeClient()
            let error = await netError { _ = try await client.send(HTTPRequest(url: server.url(path))) }
            #expect(error?.kind == .protocolNotAllowed)
            #expect(error?.detail == "redirect to \(target) refused: only http and https are allowed")
            #expect(error?.url == server.url(path))
            #expect(client.statistics.attempts == 1)
            // The handle that refused the redirect serves the next requests as usual (libcurl
            // 7.88 keeps that transfer's buffer and refuses some options until it is freed).
            for _ in 0..<3 {
                let after = try await client.send(HTTPRequest(url: server.url("/echo")))
                #expect(after.status == 200)
            }
        }
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://example.com/file", "FILE:///etc/hosts", "gopher://127.0.0.1/"])
    func refusesOtherSchemesWithoutSending(url: String) async throws {
        let client = makeClient()
        let error = await netError { _ = try await client.send(HTTPRequest(url: url)) }
        #expect(error?.kind == .protocolNotAllowed)
        #expect(error?.detail.hasSuffix("refused: only http and https are allowed") == true)
        #expect(client.statistics.attempts == 0)
        #expect(client.statistics.failures == 1)
    }

    @Test(arguments: ["not a url", "127.0.0.1:8080/path", "http://", "http://exa mple.com/"])
    func refusesMalformedURLs(url: String) async throws {
        let error = await netError { _ = try await makeClient().send(HTTPRequest(url: url)) }
        #expect(error?.kind == .invalidURL)
    }

    @Test func refusesHeadersAndTokensThatWouldInjectHeaders() async throws {
        try await withTestServer { server in
            let client = makeClient()
            let header = await netError {
                _ = try await client.send(HTTPRequest(url: server.url("/echo"), headers: [HTTPHeader("X-Key", "abc\r\nX-Evil: 1")]))
            }
            #expect(header?.detail.hasPrefix("header \"X-Key\" refused") == true)
            let token = await netError {
                _ = try await client.send(HTTPRequest(url: server.url("/echo"), bearerToken: BearerToken("tok-123\n")))
            }
            #expect(token?.detail.hasPrefix("bearer token refused") == true)
            #expect(token.map { "\($0)".contains("tok-123") } == false)
            #expect(server.log.hits("echo") == 0)
        }
    }

    @Test func refusesASelfSignedCertificate() async throws {
        let tls = try await OpenSSLServer()
        let client = makeClient()
        let error = await netError { _ = try await client.send(HTTPRequest(url: "https://127.0.0.1:\(tls.port)/")) }
        await tls.stop()
        #expect(error?.kind == .tls)
        #expect(error?.detail.hasPrefix("TLS certificate verification failed: ") == true)
        #expect(error?.detail.contains("self-signed certificate") == true, "\(String(describing: error))")
        #expect(client.statistics.attempts == 1)
    }

    @Test func errorsNameTheURLWithoutCredentials() async throws {
        let url = "http://walletwatch:hunter2@127.0.0.1:\(unusedLoopbackPort())/address?api_key=K3Y&page=2"
        let error = await netError { _ = try await makeClient { $0.retries = 0 }.send(HTTPRequest(url: url)) }
        let description = error.map { "\($0)" } ?? ""
        #expect(description.hasPrefix("GET http://127.0.0.1:"))
        #expect(description.hasSuffix("/address?api_key=<redacted>&page=2: connection refused"))
        #expect(!description.contains("hunter2"))
        #expect(!description.contains("K3Y"))
    }

    /// The token goes along on every kind of failure; it shows up in none of the errors, their
    /// reflections, or the log (retries included).
    @Test func theBearerTokenNeverAppearsInErrorsOrLogs() async throws {
        let secret = "SECRET-TOKEN-4242"
        let recorder = LogRecorder()
        let tls = try await OpenSSLServer()
        let errors = try await withTestServer { server in
            var errors: [NetError] = []
            let client = makeClient(logger: recorder.logger()) { $0.retries = 1 }
            let urls = [
                "http://127.0.0.1:\(unusedLoopbackPort())/refused",
                server.url("/redirect-file"),
                server.url("/truncated"),
                server.url("/big?bytes=5000000"),
                "https://127.0.0.1:\(tls.port)/",
            ]
            for url in urls {
                if let error = await netError({
                    _ = try await client.send(HTTPRequest(url: url, bearerToken: BearerToken(secret), timeout: .seconds(5), maxResponseBytes: 1000))
                }) {
                    errors.append(error)
                }
            }
            if let error = await netError({
                _ = try await client.send(HTTPRequest(url: server.url("/slow?ms=5000"), bearerToken: BearerToken(secret), timeout: .milliseconds(100)))
            }) {
                errors.append(error)
            }
            _ = try await client.send(HTTPRequest(url: server.url("/seq?codes=503"), bearerToken: BearerToken(secret)))
            return errors
        }
        await tls.stop()

        #expect(errors.count == 6)
        #expect(Set(errors.map(\.kind)) == [.connectionFailed, .protocolNotAllowed, .truncated, .tooLarge, .tls, .timedOut])
        for error in errors {
            for text in ["\(error)", String(reflecting: error), error.detail, error.url] {
                #expect(!text.contains(secret))
            }
        }
        #expect(recorder.entries.contains { $0.level == .notice })
        #expect(!recorder.entries.contains { $0.text.contains(secret) })
        #expect(!"\(HTTPRequest(url: "http://x/", bearerToken: BearerToken(secret)))".contains(secret))
    }
}
