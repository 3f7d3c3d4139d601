/// Asks the simulator to generate a wallet's history: `count` movements spread over `days`
/// days up to `until`, the same for the same seed on every run.
public struct GeneratedMovements: Sendable, Hashable, Codable {
    /// How many movements.
    public var count: Int
    /// The seed: the same seed gives the same data.
    public var seed: UInt64
    /// The newest movement's time; defaults to the scenario's reference time.
    public var until: SimTime?
    /// How many days before `until` the first movement is.
    public var days: Int
    /// Keep the rendered history in memory after the first request and serve those bytes
    /// afterwards (for benchmarks: then the simulator serves at memory speed, not at the speed
    /// it can write JSON). Costs the body's size in memory.
    public var prerender: Bool

    /// A request for `count` generated movements.
    public init(count: Int, seed: UInt64 = 1, until: SimTime? = nil, days: Int = 365, prerender: Bool = false) {
        self.count = count
        self.seed = seed
        self.until = until
        self.days = days
        self.prerender = prerender
    }

    private enum CodingKeys: String, CodingKey { case count, seed, until, days, prerender }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(count: try c.decode(Int.self, forKey: .count),
                  seed: try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 1,
                  until: try c.decodeIfPresent(SimTime.self, forKey: .until),
                  days: try c.decodeIfPresent(Int.self, forKey: .days) ?? 365,
                  prerender: try c.decodeIfPresent(Bool.self, forKey: .prerender) ?? false)
    }
}

/// Makes movement `id` (1...count) of a generated history on demand, without the others, so a
/// history of a million movements can be streamed in constant memory. Movement ids grow with
/// time, like bark's; the newest ~0.5% may still be pending.
struct MovementGenerator: Sendable, Hashable {
    let count: Int
    let seed: UInt64
    let start: SimTime
    let spanMilliseconds: Int64
    /// The wallet's own Ark address, where its receives arrive.
    let ownArkAddress: String

    init(_ request: GeneratedMovements, referenceTime: SimTime) {
        count = max(0, request.count)
        seed = request.seed
        let until = request.until ?? referenceTime
        spanMilliseconds = Int64(max(1, request.days)) * 86_400_000
        start = until.adding(milliseconds: -spanMilliseconds)
        var random = DeterministicRandom(seed: request.seed, index: 0, salt: 99)
        ownArkAddress = "ark1q" + random.bech32(58)
    }

    /// The movement with this id (1 is the oldest).
    func movement(id: Int) -> BarkdMovement {
        var r = DeterministicRandom(seed: seed, index: UInt64(id))
        let index = Int64(id - 1)
        let slot = max(1, spanMilliseconds / Int64(max(1, count)))
        let created = start.adding(milliseconds: index * spanMilliseconds / Int64(max(1, count)) + r.int(in: 0...(slot - 1)))
        let recent = id > count - max(1, count / 200)

        let kind = Kind.pick(r.next() % 100)
        var status: BarkdMovementStatus = .successful
        if recent, r.chance(30) {
            status = .pending
        } else {
            let roll = r.next() % 100
            if roll >= 96 { status = kind.isLightning ? .canceled : .failed } else if roll >= 90 { status = .failed }
        }
        if status == .canceled, !kind.isLightning { status = .failed }

        let amount = kind == .board ? r.logAmount(50_000, 5_000_000) : r.logAmount(1_000, 2_000_000)
        var fee: Int64 = 0
        var intended = amount
        var effective = amount
        var sentTo: [BarkdMovementDestination] = []
        var receivedOn: [BarkdMovementDestination] = []
        var inputs: [String] = []
        var outputs: [String] = []
        var exited: [String] = []
        var metadata: JSONValue?

        func vtxo(_ r: inout DeterministicRandom) -> String { r.hex(64) + ":" + String(r.next() % 3) }

        switch kind {
        case .arkoorReceive:
            receivedOn = [.init(.init(.ark, ownArkAddress), amountSat: amount)]
            outputs = [vtxo(&r)]
        case .arkoorSend:
            fee = r.int(in: 0...200)
            intended = -amount
            effective = -(amount + fee)
            sentTo = [.init(.init(.ark, "ark1q" + r.bech32(58)), amountSat: amount)]
            inputs = (0...r.int(in: 0...1)).map { _ in vtxo(&r) }
            if r.chance(60) { outputs = [vtxo(&r)] }
        case .lightningReceive:
            receivedOn = [.init(.init(.invoice, Self.invoice(amount, &r)), amountSat: amount)]
            outputs = [vtxo(&r)]
            metadata = Self.lightningMetadata(&r, successful: status == .successful)
        case .lightningSend:
            fee = max(1, amount / 400)
            intended = -amount
            effective = -(amount + fee)
            let destination: BarkdPaymentMethod = switch r.next() % 10 {
            case 0, 1: .init(.lightningAddress, "user\(r.next() % 10_000)@example.com")
            case 2: .init(.offer, "lno1q" + r.bech32(90))
            default: .init(.invoice, Self.invoice(amount, &r))
            }
            sentTo = [.init(destination, amountSat: amount)]
            inputs = [vtxo(&r)]
            if r.chance(50) { outputs = [vtxo(&r)] }
            metadata = Self.lightningMetadata(&r, successful: status == .successful)
        case .refresh:
            fee = r.int(in: 0...(amount / 2000 + 1))
            intended = 0
            effective = -fee
            inputs = (0...r.int(in: 0...2)).map { _ in vtxo(&r) }
            outputs = [vtxo(&r)]
            metadata = .object([.init("funding_txid", .string(r.hex(64)))])
        case .board:
            outputs = [vtxo(&r)]
            metadata = .object([
                .init("onchain_fee_sat", .int(r.int(in: 150...2500))),
                .init("chain_anchor", .string(r.hex(64) + ":0")),
            ])
        case .offboard, .sendOnchain:
            fee = 500 + amount / 1000
            intended = -amount
            effective = -(amount + fee)
            sentTo = [.init(.init(.bitcoin, "bc1q" + r.bech32(38)), amountSat: amount)]
            inputs = [vtxo(&r)]
            if kind == .sendOnchain, r.chance(70) { outputs = [vtxo(&r)] }
            metadata = .object([.init("offboard_txid", .string(r.hex(64)))])
        case .exit:
            intended = -amount
            effective = -amount
            inputs = [vtxo(&r)]
            exited = inputs
        }
        if status == .failed || status == .canceled {
            effective = 0
        }

        let updated = created.adding(milliseconds: r.int(in: 1_000...900_000))
        let time = status == .pending
            ? BarkdMovementTimestamp(createdAt: created, updatedAt: created.adding(milliseconds: r.int(in: 0...5_000)))
            : BarkdMovementTimestamp(createdAt: created, updatedAt: updated, completedAt: updated)
        return BarkdMovement(
            id: id, status: status, subsystem: kind.subsystem, metadata: metadata, intendedBalanceSat: intended,
            effectiveBalanceSat: effective, offchainFeeSat: fee, sentTo: sentTo, receivedOn: receivedOn,
            inputVtxos: inputs, outputVtxos: outputs, exitedVtxos: exited, time: time)
    }

    private static func invoice(_ amount: Int64, _ r: inout DeterministicRandom) -> String {
        "lnbc\(amount * 10)n1p" + r.bech32(96)
    }

    private static func lightningMetadata(_ r: inout DeterministicRandom, successful: Bool) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("payment_hash", .string(r.hex(64))),
            .init("htlc_vtxos", .array([.string(r.hex(64) + ":0")])),
        ]
        if successful { members.append(.init("payment_preimage", .string(r.hex(64)))) }
        return .object(members)
    }

    /// The realistic mix of subsystems: mostly payments, some refreshes and boards, rare exits.
    private enum Kind: Equatable {
        case arkoorReceive, arkoorSend, lightningReceive, lightningSend, refresh, board, offboard, sendOnchain, exit

        static func pick(_ roll: UInt64) -> Kind {
            switch roll {
            case 0..<20: .arkoorReceive
            case 20..<34: .arkoorSend
            case 34..<50: .lightningReceive
            case 50..<64: .lightningSend
            case 64..<76: .refresh
            case 76..<86: .board
            case 86..<92: .offboard
            case 92..<98: .sendOnchain
            default: .exit
            }
        }

        var isLightning: Bool { self == .lightningSend || self == .lightningReceive }

        var subsystem: BarkdMovementSubsystem {
            switch self {
            case .arkoorReceive: .arkoorReceive
            case .arkoorSend: .arkoorSend
            case .lightningReceive: .lightningReceive
            case .lightningSend: .lightningSend
            case .refresh: .roundRefresh
            case .board: .board
            case .offboard: .offboard
            case .sendOnchain: .sendOnchain
            case .exit: .exitStart
            }
        }
    }
}
