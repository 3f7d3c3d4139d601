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
            limits: .init(maxLineBytes: 1 << 20, timeout: .seconds(10)), connectTimeout: .seconds(10), clientName: "walletwatch-test"))
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
            limits: .init(maxLineBytes: 1 << 20, timeout: .seconds(10)), connectTimeout: .seconds(10), clientName: "walletwatch-test"))
        let session = try await connector.open()
        try await session.client.ping()
        try await simulator.addElectrumFault(.longNotification(bytes: 100_000), on: "server.ping", times: 1)
        let error = await #expect(throws: SourceError.self) { try await session.client.ping() }
        // The params: the two strings, their quotes, a comma and the brackets.
        #expect(error?.description.contains("a blockchain.scripthash.subscribe notification of 100071 bytes; at most 4096 are expected") == true,
                "\(String(describing: error))")
        #expect(error?.description.contains("\n") == false)
        #expect(session.connection.failure != nil)
        await simulator.stop()
    }
}
