import Testing
import WalletWatchNet

/// `stream(_:into:)`: chunks in order, consumer errors, error bodies, retries before the first byte.
@Suite struct StreamTests {
    @Test func handsEveryByteToTheConsumerInOrder() async throws {
        try await withTestServer { server in
            let consumer = CollectingConsumer()
            let chunks = 40, size = 16_384
            let head = try await makeClient().stream(HTTPRequest(url: server.url("/stream?chunks=\(chunks)&size=\(size)&delayMs=1")), into: consumer)
            #expect(head.status == 200)
            #expect(head.errorBody.isEmpty)
            let bytes = consumer.bytes
            #expect(bytes.count == chunks * size)
            #expect(bytes.indices.allSatisfy { bytes[$0] == streamByte(at: $0) })
            #expect(consumer.chunkCount > 1)
        }
    }

    @Test func consumerErrorAbortsTheTransferAndIsRethrown() async throws {
        try await withTestServer { server in
            let client = makeClient()
            let consumer = CollectingConsumer(failAfterChunks: 1)
            await #expect(throws: CollectingConsumer.Refusal.self) {
                _ = try await client.stream(HTTPRequest(url: server.url("/big?id=k&bytes=100000000")), into: consumer)
            }
            #expect(consumer.chunkCount == 1)
            #expect(client.statistics.attempts == 1)
            #expect(await eventually { server.log.isFinished("k") })
            #expect(server.log.bytesSent("k") < 16 << 20, "server sent \(server.log.bytesSent("k")) bytes")
        }
    }

    @Test func keepsTheStartOfAnErrorBodyInsteadOfStreamingIt() async throws {
        try await withTestServer { server in
            let consumer = CollectingConsumer()
            let head = try await makeClient().stream(HTTPRequest(url: server.url("/seq?codes=404&bodyBytes=10000")), into: consumer)
            #expect(head.status == 404)
            #expect(consumer.chunkCount == 0)
            #expect(head.errorBody == Array(repeating: UInt8(ascii: "e"), count: 4096))
        }
    }

    @Test func retriesWhileNoByteHasReachedTheConsumer() async throws {
        try await withTestServer { server in
            let client = makeClient()
            let consumer = CollectingConsumer()
            let head = try await client.stream(HTTPRequest(url: server.url("/seq?id=k&codes=503,200")), into: consumer)
            #expect(head.status == 200)
            #expect(String(decoding: consumer.bytes, as: UTF8.self) == "attempt 2")
            #expect(client.statistics.retries == 1)
        }
    }

    @Test func doesNotRetryOnceTheConsumerHasBytes() async throws {
        try await withTestServer { server in
            let client = makeClient { $0.retries = 3 }
            let consumer = CollectingConsumer()
            let error = await netError { _ = try await client.stream(HTTPRequest(url: server.url("/truncated?id=k")), into: consumer) }
            #expect(error?.kind == .truncated)
            #expect(consumer.bytes.count == 500)
            #expect(server.log.hits("k") == 1)
        }
    }

    @Test func refusesAnOversizedStream() async throws {
        try await withTestServer { server in
            let consumer = CollectingConsumer()
            let error = await netError {
                _ = try await makeClient().stream(HTTPRequest(url: server.url("/big?bytes=100000000"), maxResponseBytes: 1 << 20), into: consumer)
            }
            #expect(error?.kind == .tooLarge)
            #expect(consumer.bytes.count <= 1 << 20)
        }
    }
}
