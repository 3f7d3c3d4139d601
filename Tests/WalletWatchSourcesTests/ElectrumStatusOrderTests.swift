import Testing
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSim
@testable import WalletWatchSources

/// The statuses a session holds follow the order the server sent them (SPEC.md section 21: a
/// change is never missed), whatever order the tasks reading them run in: a pass takes in its
/// subscriptions' answers only once its whole batch is in, and a payment notified meanwhile
/// must survive that older answer.
@Suite("Electrum: a session's statuses in the order the server sent them")
struct ElectrumStatusOrderTests {
    /// A regtest address of nobody's key, paid in a block.
    static let address = Address(scriptPubKey: Script.p2wpkh(publicKey: [0x02] + [UInt8](repeating: 7, count: 32)), network: .regtest)!.description

    @Test("a payment notified before the pass takes in its subscription's answer is kept, and wakes a pass")
    func notificationBeforeTheAnswerIsTakenIn() async throws {
        let simulator = try await Simulator.start(scenario: Scenario(
            tipHeight: 120, esplora: EsploraScenario(payments: [PaymentScenario(address: Self.address, value: 50_000, blockHeight: 110)]),
            bitcoin: BitcoinScenario()))
        let connector = try #require(ElectrumConnector(
            source: "node", url: simulator.electrumTCPURL, certificateSHA256: nil, route: .direct,
            limits: .init(maxLineBytes: 1 << 20, timeout: .seconds(10)), connectTimeout: .seconds(10), clientName: "walletwatch-test", network: .regtest))
        let session = try await connector.open()
        let scripthash = Script.electrumScripthash(try Address(Self.address, network: .regtest).scriptPubKey)

        // The pass's subscription is answered...
        let answer = try #require(try await session.client.numberedReplies([session.subscription(scripthash)]).first)
        let answered = try session.client.decode(try session.client.result(of: answer.reply, "subscribe"), "subscribe", ElectrumClient.status)
        #expect(answered != nil, "the address has a history")
        // ...a payment reaches the server, which notifies it, and the daemon takes that in first.
        _ = try await simulator.pay(Self.address, value: 7_000)
        var notifications = session.connection.notifications.makeAsyncIterator()
        var change: ElectrumSession.Change?
        var line = 0
        while let notification = await notifications.next() {
            change = session.apply(notification)
            // The new block's header may come first; the script's status follows.
            guard notification.method == "blockchain.scripthash.subscribe" else { continue }
            line = notification.line
            break
        }
        #expect(change == .status(scripthash: scripthash), "a status notification for a script the session has not recorded yet still wakes a pass")
        let notified = try #require(session.cachedStatus(scripthash) ?? nil)
        #expect(notified != answered)
        #expect(line > answer.line)

        // The pass takes in its (older) answer only now: the notified status stays.
        session.remember(scripthash, status: answered, line: answer.line)
        #expect(session.cachedStatus(scripthash) == .some(notified))
        // A later answer replaces it, as it should.
        session.remember(scripthash, status: answered, line: line + 1)
        #expect(session.cachedStatus(scripthash) == .some(answered))

        // A notification naming a script never subscribed is not taken in.
        let stranger = String(repeating: "ab", count: 32)
        let unasked = ElectrumNotification(method: "blockchain.scripthash.subscribe", parameters: Array(#"["\#(stranger)", null]"#.utf8), line: line + 2)
        #expect(session.apply(unasked) == nil)
        #expect(session.cachedStatus(stranger) == nil)
        session.connection.close()
        await simulator.stop()
    }
}

/// A notification far larger than a real one (a scripthash and a status, or a header) ends the
/// connection with one line: the stream that holds notifications for a busy daemon, or for a
/// one-shot ingest that never reads them, stays small.
@Suite("Electrum: a notification larger than a real one")
struct ElectrumLongNotificationTests {
    @Test("a 100 kB notification fails the connection in one line naming it")
    func refused() async throws {
        let simulator = try await Simulator.start(scenario: Scenario(tipHeight: 110, bitcoin: BitcoinScenario()))
        let connector = try #require(ElectrumConnector(
            source: "node", url: simulator.electrumTCPURL, certificateSHA256: nil, route: .direct,
            limits: .init(maxLineBytes: 1 << 20, timeout: .seconds(10)), connectTimeout: .seconds(10), clientName: "walletwatch-test", network: .regtest))
        let session = try await connector.open()
        try await session.client.ping()
        try await simulator.addElectrumFault(.longNotification(bytes: 100_000), on: "server.ping", times: 1)
        let error = await #expect(throws: SourceError.self) { try await session.client.ping() }
        // The whole line: the JSON-RPC envelope, the method, the two strings.
        #expect(error?.description.contains("a blockchain.scripthash.subscribe notification of 100141 bytes; at most 4096 are expected") == true,
                "\(String(describing: error))")
        #expect(error?.description.contains("\n") == false)
        #expect(session.connection.failure != nil)
        await simulator.stop()
    }

    /// Issue 26: the limit counted only `params`, so 80 notifications with an 8 MiB method name
    /// were taken in (722 MB held by a one-shot ingest) and the pass succeeded.
    @Test("the whole line counts: a notification with a 100 kB method name fails the connection, its name cut short in the line")
    func longMethod() async throws {
        let simulator = try await Simulator.start(scenario: Scenario(tipHeight: 110, bitcoin: BitcoinScenario()))
        let session = try await ElectrumLongNotificationTests.connector(simulator).open()
        try await simulator.addElectrumFault(.longNotification(bytes: 100_000, inMethod: true), on: "server.ping", times: 1)
        let error = await #expect(throws: SourceError.self) { try await session.client.ping() }
        let text = error?.description ?? ""
        #expect(text.contains(" notification of 100") && text.contains("bytes; at most 4096 are expected"), "\(text.prefix(500))")
        #expect(text.count < 600, "the method's 100 kB are not repeated in the line")
        await simulator.stop()
    }

    /// A one-shot pass reads statuses from its own calls; notifications it will never read
    /// must not pile up (the stream held up to 4,096 of them).
    @Test("a session nobody follows keeps no notification; the daemon's keeps them for its watcher")
    func unfollowedSessionsKeepNone() async throws {
        let simulator = try await Simulator.start(scenario: Scenario(tipHeight: 110, bitcoin: BitcoinScenario()))
        let line = #"{"jsonrpc":"2.0","method":"blockchain.headers.subscribe","params":[{"height":5,"hex":"00"}]}"#
        for following in [false, true] {
            let session = try await ElectrumLongNotificationTests.connector(simulator).open(following: following)
            try await simulator.addElectrumFault(.notification(line: line, count: 10), on: "server.ping", times: 1)
            try await session.client.ping()
            // The answer came after the ten notifications: they have all been read.
            session.connection.close()
            var kept = 0
            for await _ in session.connection.notifications { kept += 1 }
            #expect(kept == (following ? 10 : 0), "following \(following): \(kept)")
        }
        await simulator.stop()
    }

    static func connector(_ simulator: Simulator) throws -> ElectrumConnector {
        try #require(ElectrumConnector(
            source: "node", url: simulator.electrumTCPURL, certificateSHA256: nil, route: .direct,
            limits: .init(maxLineBytes: 1 << 20, timeout: .seconds(10)), connectTimeout: .seconds(10), clientName: "walletwatch-test", network: .regtest))
    }
}

/// Issue 26: a notification with an upper-case scripthash, or a parameter past the two the
/// protocol defines, was dropped, and the payment it announced waited for the hourly pass.
@Suite("Electrum: notifications as servers may word them")
struct ElectrumNotificationWordingTests {
    @Test("a scripthash in any case and extra parameters are taken in; what cannot be read wakes a pass; an unasked script does not")
    func wordings() async throws {
        let simulator = try await Simulator.start(scenario: Scenario(tipHeight: 110, bitcoin: BitcoinScenario()))
        let session = try await ElectrumLongNotificationTests.connector(simulator).open()
        let scripthash = String(repeating: "ab", count: 32)
        _ = session.subscription(scripthash)
        let status = String(repeating: "c", count: 64)
        func notify(_ method: String, _ params: String, line: Int) -> ElectrumSession.Change? {
            session.apply(ElectrumNotification(method: method, parameters: Array(params.utf8), line: line))
        }
        #expect(notify("blockchain.scripthash.subscribe", #"["\#(scripthash.uppercased())", "\#(status)"]"#, line: 10) == .status(scripthash: scripthash))
        #expect(session.cachedStatus(scripthash) == .some(status))
        #expect(notify("blockchain.scripthash.subscribe", #"["\#(scripthash)", null, {"extra": 1}, 7]"#, line: 11) == .status(scripthash: scripthash))
        #expect(session.cachedStatus(scripthash) == .some(nil))
        #expect(notify("blockchain.headers.subscribe", #"[{"height": 111, "hex": "\#(String(repeating: "00", count: 80))"}, "more"]"#, line: 12) == .tip(height: 111))
        // Unreadable: a malformed status, missing parameters, a method the session does not know.
        #expect(notify("blockchain.scripthash.subscribe", #"["\#(scripthash)", "not a status"]"#, line: 13) == .unreadable(method: "blockchain.scripthash.subscribe"))
        #expect(notify("blockchain.scripthash.subscribe", #"["\#(scripthash)"]"#, line: 14) == .unreadable(method: "blockchain.scripthash.subscribe"))
        #expect(notify("blockchain.headers.subscribe", "{}", line: 15) == .unreadable(method: "blockchain.headers.subscribe"))
        #expect(notify("blockchain.scripthash.subscribed", "[]", line: 16) == .unreadable(method: "blockchain.scripthash.subscribed"))
        // A script never asked for is not taken in, in whatever case.
        #expect(notify("blockchain.scripthash.subscribe", #"["\#(String(repeating: "CD", count: 32))", "\#(status)"]"#, line: 17) == nil)
        session.connection.close()
        await simulator.stop()
    }
}
