import Logging
import Testing
import TestSupport
import WalletWatchNet
@testable import WalletWatchSources

/// A source's token is cut out of its errors once: the transport redacts libcurl's message and
/// the source redacts the problem it quotes (a server may echo the token), and the second pass
/// must not redact the first one's mark.
@Suite struct TokenRedactionTests {
    @Test func aTokenIsCutOutOnceHoweverOftenItIsRedacted() {
        let token = BearerToken("t")
        let once = token.redact("connection refused")
        #expect(once == "connec<redacted>ion refused")
        #expect(token.redact(once) == once)
        #expect(BearerToken("tok-123").redact("bad token tok-123 (tok-123)") == "bad token <redacted> (<redacted>)")
        #expect(BearerToken("redacted").redact("<redacted> and redacted") == "<redacted> and <redacted>")
        #expect(BearerToken("").redact("connection refused") == "connection refused")
    }

    @Test func aTransportErrorOfASourceWithAOneLetterTokenReadsRedactedOnce() async throws {
        let http = CurlHTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(5), timeout: .seconds(10), retries: 0,
                                                                         userAgent: "walletwatch-test"),
                                  logger: Logger(label: "test"))
        let url = "http://127.0.0.1:\(unusedLoopbackPort())"
        let client = BarkdClient(source: "ark", baseURL: url, token: BearerToken("t"), http: http)
        let error = try await #require(throws: SourceError.self) { _ = try await client.balance() }
        #expect(error.problem == "connec<redacted>ion refused", "\(error)")
        #expect(error.description == "source 'ark': GET \(url)/api/v1/wallet/balance: connec<redacted>ion refused")
    }
}
