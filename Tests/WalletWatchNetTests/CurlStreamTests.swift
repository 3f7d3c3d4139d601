import Synchronization
import Testing
@testable import WalletWatchNet

/// ``CurlStream`` against a real line-echo server (Python's asyncio, OpenSSL for TLS): round
/// trips, large and concurrent writes, and how reads end (cancelled, closed, peer gone).
@Suite struct CurlStreamTests {
    @Test(arguments: [false, true])
    func echoesLines(tls: Bool) async throws {
        try await withEchoStream(tls: tls) { server, stream in
            for text in ["{\"id\":0,\"method\":\"server.version\"}", "second", ""] {
                try await expectEcho(stream, text)
            }
            #expect((stream.peerCertificateSHA256 != nil) == tls)
        }
    }

    @Test func connectsToAnIPv6Literal() async throws {
        let server = try await LineServer(tls: true, host: "::1")
        let endpoint = StreamEndpoint(host: "[::1]", port: server.port, security: .tls(pin: server.certificate?.pin))
        #expect(endpoint.description == "ssl://[::1]:\(server.port)")
        let stream = try await connect(endpoint)
        try await expectEcho(stream, "v6")
        stream.close()
        await server.stop()
    }

    /// A 1 MiB line goes out whole while its echo comes back: reading and writing at once,
    /// neither direction waiting for the other (both sides' buffers are far smaller).
    @Test(arguments: [false, true])
    func writesAMebibyteWhileReadingItsEcho(tls: Bool) async throws {
        try await withEchoStream(tls: tls) { server, stream in
            // Letters, so that a byte out of place shows; built without a closure per byte, which
            // a debug build makes slow enough to hold up the other tests' cooperative threads.
            var payload = Array(repeating: Array("abcdefghijklmnopqrstuvwxyz".utf8), count: (1 << 20) / 26 + 1).flatMap { $0 }
            payload.removeLast(payload.count - (1 << 20))
            payload.append(0x0A)
            async let echo = read(stream, count: payload.count)
            try await stream.write(payload)
            #expect(try await echo == payload)
            #expect(server.events.contains("LINE 1 \(payload.count)"))
        }
    }

    /// One reader and eight writers at once: every line comes back intact (a write is never
    /// interleaved with another), and each writer's lines in its own order.
    @Test func servesOneReaderAndManyWritersAtOnce() async throws {
        try await withEchoStream(tls: true) { server, stream in
            let writers = 8, linesEach = 50
            let expectedBytes = (0..<writers).flatMap { writer in (0..<linesEach).flatMap { line("writer \(writer) line \($0) " + String(repeating: "x", count: 500)) } }.count
            async let received = read(stream, count: expectedBytes)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        for index in 0..<linesEach {
                            try await stream.write(line("writer \(writer) line \(index) " + String(repeating: "x", count: 500)))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let lines = String(decoding: try await received, as: UTF8.self).split(separator: "\n")
            #expect(lines.count == writers * linesEach)
            for writer in 0..<writers {
                let own = lines.filter { $0.hasPrefix("writer \(writer) ") }
                #expect(own.map(String.init) == (0..<linesEach).map { "writer \(writer) line \($0) " + String(repeating: "x", count: 500) })
            }
        }
    }

    /// Cancelling a read that waits for bytes that never come ends it within a second, and
    /// loses nothing: the stream goes on, the next read gets the next bytes.
    @Test func cancellingAPendingReadIsPromptAndLosesNothing() async throws {
        try await withEchoStream(tls: true) { server, stream in
            let reader = await waitingRead(on: stream)
            let took = await elapsed {
                reader.cancel()
                let result = await outcome(of: reader, closing: stream)
                #expect((result.failure as? NetError)?.kind == .cancelled)
            }
            #expect(took < .seconds(1), "took \(took)")
            try await expectEcho(stream, "after")
        }
    }

    /// Cancelling writes to a peer that does not read: the write whose bytes are going out
    /// releases its caller at once but still goes out whole (the stream stays framed for what
    /// follows); the write queued behind it is withdrawn, and none of it is sent.
    @Test func cancellingWritesKeepsTheStreamFramed() async throws {
        let peer = RawPeer()
        let stream = try await connect(StreamEndpoint(host: "127.0.0.1", port: peer.port, security: .plain))
        peer.accept()
        // Far more than the kernel's buffers hold while the peer does not read.
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 16 << 20)
        let first = Task { try await stream.write(big) }
        #expect(await eventually { peer.hasBytesWaiting })
        let second = Task { try await stream.write(Array("withdrawn".utf8)) }
        #expect(await eventually { stream.waiting.writes == 2 })
        for task in [second, first] {
            let took = await elapsed {
                task.cancel()
                #expect((await outcome(of: task, closing: stream).failure as? NetError)?.kind == .cancelled)
            }
            #expect(took < .seconds(1), "took \(took)")
        }
        // The peer reads now: all of the first write arrives, then nothing more.
        let received = peer.receive(count: big.count)
        #expect(received.count == big.count && received.allSatisfy { $0 == UInt8(ascii: "a") })
        #expect(await eventually { stream.waiting.writes == 0 })
        stream.close()
        #expect(peer.receiveUntilEnd().isEmpty)
    }

    @Test func aReadTimesOutAndTheStreamGoesOn() async throws {
        try await withEchoStream(tls: false) { server, stream in
            let error = await netError { _ = try await stream.read(timeout: .milliseconds(200)) }
            #expect(error?.kind == .timedOut)
            #expect(error?.description == "tcp://127.0.0.1:\(server.port): nothing received within 200 ms")
            try await expectEcho(stream, "still here")
        }
    }

    /// close() wakes a waiting reader at once, refuses what comes after, and the stream's
    /// thread ends (it holds the loop until it has closed the connection).
    @Test func closeWakesAReaderAndEndsTheThread() async throws {
        let server = try await LineServer(tls: true)
        weak var loop: StreamEventLoop?
        do {
            let stream = try await connect(server.endpoint(pin: server.certificate?.pin))
            loop = stream.loop
            let reader = await waitingRead(on: stream)
            let took = await elapsed {
                stream.close()
                #expect((await outcome(of: reader, closing: stream).failure as? NetError)?.kind == .closed)
            }
            #expect(took < .seconds(1), "took \(took)")
            #expect(stream.isClosed)
            let afterwards = await netError { try await stream.write(line("too late")) }
            #expect(afterwards?.kind == .closed)
            stream.close()
        }
        #expect(await eventually { loop == nil })
        // The server saw the connection end, without a byte.
        #expect(await eventually { server.totalReceived(connection: 1) == 0 })
        await server.stop()
    }

    @Test func releasingTheStreamClosesItsConnection() async throws {
        let server = try await LineServer(tls: false)
        weak var loop: StreamEventLoop?
        do {
            let stream = try await connect(server.endpoint())
            loop = stream.loop
            try await stream.write(line("one"))
            _ = try await read(stream, count: 4)
        }
        #expect(await eventually { loop == nil })
        #expect(await eventually { server.totalReceived(connection: 1) == 4 })
        await server.stop()
    }

    /// The peer closing its side is an error of its own, after every byte it sent before.
    @Test(arguments: [false, true])
    func thePeerClosingEndsReadsAfterItsLastBytes(tls: Bool) async throws {
        try await withEchoStream(tls: tls) { server, stream in
            try await stream.write(line("last words") + line("close"))
            #expect(try await read(stream, count: 11) == line("last words"))
            let error = await netError { _ = try await stream.read(timeout: .seconds(30)) }
            #expect(error?.kind == .closedByPeer)
            #expect(error?.description == "\(tls ? "ssl" : "tcp")://127.0.0.1:\(server.port): the server closed the connection")
            // And so does every read after it.
            #expect(await netError { _ = try await stream.read() }?.kind == .closedByPeer)
        }
    }

    @Test func aKilledServerEndsAWaitingRead() async throws {
        try await withEchoStream(tls: true) { server, stream in
            let reader = await waitingRead(on: stream)
            await server.stop()
            let error = await outcome(of: reader, closing: stream).failure as? NetError
            #expect(error?.kind == .closedByPeer || error?.kind == .connectionFailed, "\(String(describing: error))")
        }
    }

    /// A connection left idle goes on working (the daemon keeps one per Electrum server for
    /// hours: nothing on this side times it out).
    @Test func anIdleStreamStaysUsable() async throws {
        try await withEchoStream(tls: true) { server, stream in
            try await expectEcho(stream, "before")
            // The idleness is the point of the test, not a wait for something to happen.
            try await Task.sleep(for: .seconds(3))
            try await expectEcho(stream, "after three idle seconds")
            #expect(server.accepted == 1)
        }
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
