import Foundation
import Logging
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchNet
@testable import WalletWatchSources

@Suite("Webhook sender")
struct WebhookSenderTests {
    /// RFC 4231's HMAC-SHA-256 test cases 1, 2, 3 and 6 (sections 4.2, 4.3, 4.4 and 4.7): key,
    /// data, and the published HMAC-SHA-256.
    static let rfc4231: [(key: [UInt8], data: [UInt8], hmac: String)] = [
        (Array(repeating: 0x0b, count: 20), Array("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (Array(repeating: 0xaa, count: 20), Array(repeating: 0xdd, count: 50), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ]

    static func client() -> CurlHTTPClient {
        CurlHTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(5), timeout: .seconds(30), retries: 3,
                                                              userAgent: "walletwatch-test"),
                       logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    @Test("the signature is RFC 4231's HMAC-SHA-256", arguments: 0..<4)
    func rfc4231Vectors(_ index: Int) {
        let vector = Self.rfc4231[index]
        #expect(WebhookSender.signature(of: vector.data, key: WebhookSecret(fileContent: vector.key)) == "sha256=" + vector.hmac)
    }

    @Test("a secret file's trailing newline is not part of the key, and the secret never prints")
    func secretFromFile() {
        #expect(WebhookSecret(fileContent: Array("Jefe\n".utf8)).bytes == Array("Jefe".utf8))
        #expect(WebhookSecret(fileContent: Array("Jefe\r\n".utf8)).bytes == Array("Jefe".utf8))
        #expect(WebhookSecret(fileContent: Array("Jefe".utf8)).bytes == Array("Jefe".utf8))
        #expect(WebhookSecret(fileContent: Array("Jefe\n\n".utf8)).bytes == Array("Jefe\n".utf8), "one line break only")
        let secret = WebhookSecret(fileContent: Array("hunter2".utf8))
        #expect("\(secret)" == "<redacted>" && String(reflecting: secret) == "<redacted>")
    }

    @Test("a POST reaches a real receiver with the body, the headers and a signature it can verify")
    func sendsSigned() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let message = WebhookMessage(id: "5f0c6a1e-0000-4000-8000-000000000001", event: "goal.reached", at: .at("2026-11-21T12:00:00Z"),
                                     data: #"{"goal":"Trip","funded":100,"target":100,"currency":"EUR"}"#)
        let sender = WebhookSender(http: Self.client(), timeout: .seconds(10))
        let outcome = await sender.send(message, to: receiver.url, secret: WebhookSecret(fileContent: Array("Jefe\n".utf8)))
        #expect(outcome == .delivered(status: 200))
        let request = try #require(receiver.received.first)
        #expect(receiver.received.count == 1)
        #expect(request.text == #"{"id":"5f0c6a1e-0000-4000-8000-000000000001","event":"goal.reached","at":"2026-11-21T12:00:00.000Z","data":{"goal":"Trip","funded":100,"target":100,"currency":"EUR"}}"#)
        #expect(request.header("content-type") == "application/json")
        #expect(request.header("x-walletwatch-event") == "goal.reached")
        #expect(request.header("x-walletwatch-delivery") == "5f0c6a1e-0000-4000-8000-000000000001")
        // The receiver's check, done with another implementation (OpenSSL through Python's hmac).
        let expected = try await ProcessRunner.run("/usr/bin/python3", ["-c", """
            import hmac, hashlib, sys
            print("sha256=" + hmac.new(b"Jefe", sys.stdin.buffer.read(), hashlib.sha256).hexdigest(), end="")
            """], environment: [:], currentDirectory: "/", input: request.text)
        #expect(request.header("x-walletwatch-signature") == expected.stdout)
        #expect(JSONSerialization.isValidJSONObject(try JSONSerialization.jsonObject(with: Data(request.body))))
    }

    @Test("without a secret no signature header; a refusal and a closed port are outcomes, tried once")
    func outcomes() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        let sender = WebhookSender(http: Self.client(), timeout: .seconds(10))
        let message = WebhookMessage(id: "id-1", event: "test", at: .at("2026-11-21T12:00:00Z"), data: "{}")
        receiver.answer(500)
        let refused = await sender.send(message, to: receiver.url, secret: nil)
        #expect(refused == .refused(status: 500, problem: #"HTTP 500: {"ok":true}"#))
        #expect(receiver.received.count == 1, "no retries of its own: the client's 3 are overridden")
        #expect(receiver.received[0].header("x-walletwatch-signature") == nil)
        await receiver.stop()
        let unreachable = await sender.send(message, to: receiver.url, secret: nil)
        guard case .unreachable(let problem) = unreachable else { Issue.record("\(unreachable)"); return }
        #expect(!problem.contains("127.0.0.1"), "the URL is left out: it may carry the target's own secret")
    }

    @Test("a slow receiver is cut off after the sender's timeout")
    func slowReceiver() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        receiver.answer(200, after: .seconds(20))
        let sender = WebhookSender(http: Self.client(), timeout: .seconds(1))
        let started = ContinuousClock.now
        let outcome = await sender.send(WebhookMessage(id: "id-2", event: "test", at: .at("2026-11-21T12:00:00Z"), data: "{}"),
                                        to: receiver.url, secret: nil)
        #expect(!outcome.isDelivered)
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
