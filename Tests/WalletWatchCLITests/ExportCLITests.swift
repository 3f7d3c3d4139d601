import Foundation
import Testing
import TestSupport
import WalletWatchCore

@Suite("CLI: export csv, loaded by sqlite3")
struct ExportCLITests {
    let folder = TemporaryDirectory("walletwatch-export")

    func cli(_ now: String) -> CLIRunner { CLIRunner(folder: folder, now: now) }

    /// Loads a CSV file into a new table with the sqlite3 shell, as a user would, and fails on
    /// any complaint from it.
    func load(_ file: String, into table: String, database: String) async throws {
        let result = try await ProcessRunner.run("/usr/bin/sqlite3", ["-bail", database, ".import --csv \(file) \(table)"],
                                                 environment: [:], currentDirectory: folder.path)
        #expect(result.status == 0 && result.stderr.isEmpty, "sqlite3 .import of \(file): \(result.stderr)")
    }

    @Test("transactions (with tags and awkward notes), allocations and closed months load into sqlite3 without errors")
    func sqliteImport() async throws {
        folder.write("walletwatch.toml", "[rates]\nprovider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"65000\"\n")
        let november = cli("2026-11-02T08:00:00Z")
        let note = "bought \"cheap\", finally\nsecond line"
        for arguments in [
            ["asset", "add", "Cash", "--currency", "USD"], ["asset", "add", "Stack", "--currency", "BTC"],
            ["tx", "add", "Cash", "250.50", "--date", "2026-10-15T09:30:00Z", "--note", note],
            ["tx", "add", "Stack", "0.015", "--date", "2026-10-16T00:00:00Z"],
            ["tx", "add", "Stack", "-0.005", "--date", "2026-10-20T00:00:00Z"],
            ["goal", "add", "House", "--currency", "USD", "--target", "10000"],
            ["allocate", "Cash", "House=200"], ["allocate", "Stack", "House=100%"],
            ["month", "start"],
        ] {
            let result = try await november.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let listed = try #require(try await november.run("tx", "list", "--asset", "Cash", "--json").objects)
        let cashTxid = try #require(listed.first?["txid"] as? String)
        #expect(try await november.run("tag", "add", cashTxid, "salary", "house-fund").status == 0)
        #expect(try await cli("2026-11-20T08:00:00Z").run("month", "complete").status == 0)

        let later = cli("2026-11-21T08:00:00Z")
        for what in ["transactions", "allocations", "months"] {
            let result = try await later.run("export", "csv", "--what", what, "\(what).csv")
            #expect(result.status == 0, "\(what): \(result.stderr)")
            #expect(try FileManager.default.attributesOfItem(atPath: folder.file("\(what).csv"))[.posixPermissions] as? Int == 0o600)
        }
        let stdout = try await later.run("export", "csv")
        #expect(stdout.stdout == (try String(contentsOfFile: folder.file("transactions.csv"), encoding: .utf8)), "stdout without FILE")
        #expect(stdout.stdout.hasPrefix("txid,asset,date,amount,currency,direction,type,status,fee,counterparty,note,tags\r\n"))
        #expect(try await later.run("export", "csv", "--what", "tags").status == 64)

        let database = folder.file("loaded.sqlite")
        try await load("transactions.csv", into: "transactions", database: database)
        try await load("allocations.csv", into: "allocations", database: database)
        try await load("months.csv", into: "months", database: database)
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions") == "3")
        #expect(try await sqlite(database, "SELECT asset, date, amount, currency FROM transactions ORDER BY date") == """
            Cash|2026-10-15T09:30:00.000Z|250.50|USD
            Stack|2026-10-16T00:00:00.000Z|0.01500000|BTC
            Stack|2026-10-20T00:00:00.000Z|-0.00500000|BTC
            """)
        #expect(try await sqlite(database, "SELECT note FROM transactions WHERE asset = 'Cash'") == note)
        #expect(try await sqlite(database, "SELECT tags FROM transactions WHERE asset = 'Cash'") == "house-fund, salary")
        #expect(try await sqlite(database, "SELECT asset, goal, amount, currency, reason FROM allocations ORDER BY timestamp, asset") == """
            Cash|House|200.00|USD|allocate
            Stack|House|0.01000000|BTC|allocate
            """)
        #expect(try await sqlite(database, "SELECT month, goal, currency, planned, started_at, completed_at FROM months") == """
            2026-11|House|USD|0.00|2026-11-02T08:00:00.000Z|2026-11-20T08:00:00.000Z
            """)
    }

    @Test("every CSV the CLI writes: notes, tags, asset and goal names a spreadsheet would run as formulas are written as text; amounts stay numbers")
    func formulaCells() async throws {
        folder.write("walletwatch.toml", "[rates]\nprovider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"65000\"\n")
        let november = cli("2026-11-02T08:00:00Z")
        let (asset, goal, note, tag) = ("=cmd|' /C calc'!A0", "@SUM(A1)", "+1+1", "=A1*2")
        for arguments in [
            ["asset", "add", asset, "--currency", "USD"],
            ["tx", "add", asset, "250.50", "--date", "2026-10-15T09:30:00Z", "--note", note],
            ["tx", "add", asset, "-15", "--date", "2026-10-16T09:30:00Z", "--note=-2+3"],
            ["goal", "add", goal, "--currency", "USD", "--target", "10000"],
            ["allocate", asset, "\(goal)=200"],
            ["month", "start"],
        ] {
            let result = try await november.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let listed = try #require(try await november.run("tx", "list", "--json").objects)
        for txid in listed.compactMap({ $0["txid"] as? String }) {
            #expect(try await november.run("tag", "add", txid, tag).status == 0)
        }
        #expect(try await cli("2026-11-20T08:00:00Z").run("month", "complete").status == 0)

        let later = cli("2026-11-21T08:00:00Z")
        var cells: [String: [[String]]] = [:]
        for what in ["transactions", "allocations", "months"] {
            let result = try await later.run("export", "csv", "--what", what)
            #expect(result.status == 0, "\(what): \(result.stderr)")
            cells[what] = try CSV.parse(result.stdout).map(\.fields)
            let toFile = try await later.run("export", "csv", "--what", what, "\(what).csv")
            let written = try String(contentsOfFile: folder.file("\(what).csv"), encoding: .utf8)
            #expect(toFile.status == 0 && written == result.stdout, "\(what): \(toFile.stderr)")
        }
        // No cell anywhere starts like a formula, unless it is a plain number.
        for (what, rows) in cells {
            for cell in rows.joined() where ["=", "+", "-", "@", "\t", "\r"].contains(cell.unicodeScalars.first ?? " ") {
                #expect(cell.wholeMatch(of: /[-+]?[0-9]+(\.[0-9]+)?/) != nil, "\(what): a formula cell \(cell)")
            }
        }
        let transactions = try #require(cells["transactions"])
        #expect(transactions.dropFirst().map { [$0[1], $0[3], $0[10], $0[11]] } == [
            ["'" + asset, "250.50", "'" + note, "'" + tag],
            ["'" + asset, "-15.00", "'-2+3", "'" + tag],
        ])
        #expect(cells["allocations"]?.dropFirst().map { [$0[1], $0[2], $0[3]] } == [["'" + asset, "'" + goal, "200.00"]])
        #expect(cells["months"]?.dropFirst().map { [$0[1], $0[3]] } == [["'" + goal, "0.00"]])
    }
}
