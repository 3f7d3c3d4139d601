import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// The demo as scripts/demo runs it (ingest, `rates backfill`, `report`), with every portfolio
/// figure checked against a hand computation from the simulator's price series (SPEC.md
/// section 13's moving average, worked out in Python's exact fractions), and the web page showing
/// those figures and each transaction's value at its date.
@Suite("CLI: the demo's portfolio after a backfill, by hand")
struct DemoPortfolioCLITests {
    static let usd: Int64 = 6_500_000
    static let now = Instant(iso8601: "2026-11-21T12:00:00Z")!

    /// One asset's figures in US cents, from its confirmed transactions (sats, instant).
    struct ByHand {
        var value: Int64, averageCost: Int64?, costBasis: Int64, unrealized: Int64, realized: Int64
    }

    static func price(_ instant: Instant) -> Int64 { PriceSeriesByHand.cents(usd, on: instant.day) }

    /// SPEC 13's moving average worked out by another implementation: Python's exact fractions,
    /// fed the movements in date order (deposits first at one instant) with the price of each
    /// one's day and the price now, each figure rounded once, half to even, as Python's round()
    /// does.
    static func figures(_ movements: [(sats: Int64, at: Instant)]) async throws -> ByHand {
        let ordered = movements.sorted { ($0.at, -$0.sats) < ($1.at, -$1.sats) }
        let input = ordered.map { "\($0.sats) \(price($0.at))" }.joined(separator: "\n")
        let result = try await ProcessRunner.run("/usr/bin/python3", ["-c", """
            import sys
            from fractions import Fraction
            usd = \(usd)
            quantity, basis, realized = 0, Fraction(0), Fraction(0)
            for line in sys.stdin.read().split("\\n"):
                sats, cents = map(int, line.split())
                price = Fraction(cents, 100_000_000)          # cents per sat
                if sats > 0:
                    quantity += sats
                    basis += sats * price
                else:
                    average = basis / quantity
                    realized += -sats * (price - average)
                    quantity += sats
                    basis = Fraction(0) if quantity == 0 else basis + sats * average
            value = round(Fraction(quantity * usd, 100_000_000))
            average = "null" if quantity == 0 else round(basis / quantity * 100_000_000)
            print(value, average, round(basis), value - round(basis), round(realized))
            """], environment: [:], currentDirectory: "/", input: input)
        let fields = result.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard result.status == 0, fields.count == 5 else { throw HandComputationFailed(output: result.stdout + result.stderr) }
        return ByHand(value: Int64(fields[0])!, averageCost: Int64(fields[1]), costBasis: Int64(fields[2])!,
                      unrealized: Int64(fields[3])!, realized: Int64(fields[4])!)
    }

    struct HandComputationFailed: Error {
        let output: String
    }

    /// The time-weighted return of SPEC 13: sub-periods between cash flows, each
    /// (value just before the flow - value after the previous one) / the latter, chained.
    static func twr(_ assets: [[(sats: Int64, at: Instant)]]) -> Double? {
        let flows = Dictionary(grouping: assets.enumerated().flatMap { index, list in list.map { (index, $0) } }, by: \.1.at)
        var quantities = Array(repeating: Int64(0), count: assets.count)
        func value(_ at: Instant) -> Double { Double(quantities.reduce(0, +)) * Double(price(at)) / 1e8 }
        var growth = 1.0, periods = 0
        var start: Double?
        for instant in flows.keys.sorted() {
            if let start, start > 0 { growth *= value(instant) / start; periods += 1 }
            for (index, movement) in flows[instant]! { quantities[index] += movement.sats }
            start = value(instant)
        }
        if let start, start > 0 { growth *= value(now) / start; periods += 1 }
        return periods > 0 ? growth - 1 : nil
    }

    @Test("report: value, average cost, cost basis, gains and TWR of every asset and the total equal the hand computation")
    func reportByHand() async throws {
        let demo = try await DemoSetup()
        let cli = demo.cli()
        #expect(try await cli.run("ingest").status == 0)
        let backfill = try await cli.run("rates", "backfill", "--json")
        #expect(backfill.status == 0, "\(backfill.stderr)")
        #expect(backfill.object?["requests"] as? Int == 1 && backfill.object?["provider"] as? String == "mempool")

        let transactions = try #require(try await cli.run("tx", "list", "--json").objects)
        var movements: [String: [(sats: Int64, at: Instant)]] = [:]
        for row in transactions where row["status"] as? String == "confirmed" {
            let at = Instant(iso8601: row["date"] as! String)!
            guard at <= Self.now, let sats = row["amount"] as? Int, sats != 0 else { continue }
            movements[row["asset"] as! String, default: []].append((Int64(sats), at))
        }
        #expect(movements.count == 3, "\(movements.keys)")
        // Every transaction's value at its date, confirmed or not.
        for row in transactions {
            let at = Instant(iso8601: row["date"] as! String)!
            let expected = PriceSeriesByHand.value(sats: Int64(row["amount"] as! Int), cents: Self.price(at))
            #expect(row["value_at_date"] as? Int == Int(expected), "\(row["txid"]!)")
        }

        let report = try await cli.run("report", "--json")
        #expect(report.status == 0, "\(report.stderr)")
        #expect(!report.stderr.contains("no BTC/USD rate"), "\(report.stderr)")
        let document = try #require(report.object)
        let lines = try #require(document["assets"] as? [[String: Any]])
        var total = ByHand(value: 0, averageCost: nil, costBasis: 0, unrealized: 0, realized: 0)
        for line in lines {
            let name = try #require(line["name"] as? String)
            let expected = try await Self.figures(try #require(movements[name]))
            #expect(line["value"] as? Int == Int(expected.value), "\(name) value")
            #expect(line["average_cost"] as? Int == expected.averageCost.map(Int.init), "\(name) average cost")
            #expect(line["cost_basis"] as? Int == Int(expected.costBasis), "\(name) cost basis")
            #expect(line["unrealized_gain"] as? Int == Int(expected.unrealized), "\(name) unrealized")
            #expect(line["realized_gain"] as? Int == Int(expected.realized), "\(name) realized")
            let twr = try #require(line["twr"] as? Double, "\(name) twr")
            #expect(abs(twr - (Self.twr([movements[name]!]) ?? .nan)) <= 1.5e-6, "\(name) twr \(twr)")
            total.value += expected.value
            total.costBasis += expected.costBasis
            total.unrealized += expected.unrealized
            total.realized += expected.realized
        }
        let summed = try #require(document["total"] as? [String: Any])
        #expect(summed["value"] as? Int == Int(total.value) && summed["cost_basis"] as? Int == Int(total.costBasis))
        #expect(summed["unrealized_gain"] as? Int == Int(total.unrealized) && summed["realized_gain"] as? Int == Int(total.realized))
        let twr = try #require(summed["twr"] as? Double)
        #expect(abs(twr - (Self.twr(Array(movements.values)) ?? .nan)) <= 1.5e-6, "total twr \(twr)")
        // Real figures: the cost basis differs from the value (prices moved).
        #expect(total.costBasis != total.value && total.costBasis > 0)

        // The table the demo prints shows them too, never "no rate".
        let table = try await cli.run("report")
        #expect(!table.stdout.contains("no rate") && table.stdout.contains(Money(minorUnits: Int128(total.costBasis), currency: .usd).majorString), "\(table.stdout)")
    }

    @Test("the web page: the portfolio's figures and each latest transaction's value at its date")
    func pageByHand() async throws {
        let demo = try await DemoSetup()
        let cli = demo.cli()
        #expect(try await cli.run("ingest").status == 0)
        #expect(try await cli.run("rates", "backfill").status == 0)
        let report = try #require(try await cli.run("report", "--json").object?["total"] as? [String: Any])
        let latest = try #require(try await cli.run("tx", "list", "--limit", "10", "--json").objects)

        let portFile = demo.folder.file("web.port")
        let server = try BackgroundProcess(cli.binary, ["serve", "--listen", "127.0.0.1:0", "--port-file", portFile],
                                           environment: cli.environment, currentDirectory: demo.folder.path)
        var port = 0
        #expect(await eventually(within: .seconds(20)) {
            port = Int((try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return port > 0
        }, "serve did not start: \(server.stderr)")
        let page = try await ProcessRunner.run("/usr/bin/curl", ["-s", "--max-time", "60", "http://127.0.0.1:\(port)/"], environment: [:], currentDirectory: "/").stdout
        server.send(SIGTERM)
        #expect(await server.exitStatus(within: .seconds(30)) == 0, "\(server.stderr)")

        #expect(page.contains("Value then"))
        for key in ["value", "cost_basis", "unrealized_gain", "realized_gain"] {
            let cents = Int64(try #require(report[key] as? Int))
            #expect(page.contains(Money(minorUnits: Int128(cents), currency: .usd).description), "\(key) \(cents)")
        }
        #expect(!page.contains(">no rate<"), "a figure without a rate")
        for row in latest {
            let at = Instant(iso8601: row["date"] as! String)!
            let cents = PriceSeriesByHand.value(sats: Int64(row["amount"] as! Int), cents: Self.price(at))
            #expect(page.contains(Money(minorUnits: Int128(cents), currency: .usd).description), "\(row["txid"]!)")
        }
    }
}
