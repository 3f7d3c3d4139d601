import Logging
import Testing
@testable import WalletWatchNet

/// The client's own transfer threads: a bounded number, and none left behind.
@Suite struct TransferThreadTests {
    @Test func transfersBeyondTheMaximumWaitForAThread() async throws {
        try await withTestServer { server in
            let client = CurlHTTPClient(configuration: HTTPClientConfiguration(userAgent: "walletwatch-tests/1.0"),
                                        logger: .init(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                        maximumConcurrentTransfers: 1)
            let took = try await elapsed {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<3 {
                        group.addTask { try await client.send(HTTPRequest(url: server.url("/slow?ms=200"))).status }
                    }
                    for try await status in group {
                        #expect(status == 200)
                    }
                }
            }
            // One at a time, over one kept-alive connection.
            #expect(took >= .milliseconds(600), "took \(took)")
            #expect(client.statistics.connectionsOpened == 1)
        }
    }

    @Test func threadsEndWhenTheClientGoesAway() async throws {
        try await withTestServer { server in
            weak var pool: TransferThreadPool?
            do {
                let client = makeClient()
                pool = client.pool
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask { _ = try await client.send(HTTPRequest(url: server.url("/slow?ms=50"))) }
                    }
                    try await group.waitForAll()
                }
                #expect(pool != nil)
            }
            // Each thread holds the pool until it has cleaned up its libcurl handles and ended.
            #expect(await eventually { pool == nil })
        }
    }
}
