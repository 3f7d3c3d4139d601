import Foundation
import Testing
import TestSupport
import WalletWatchSim

@Suite("CLI: doctor")
struct DoctorCLITests {
    @Test("the demo, with its files private: every check passes, one line each; JSON is {ok, checks: [{name, ok, detail}]}")
    func healthy() async throws {
        let demo = try await DemoSetup()
        chmod(demo.folder.file("walletwatch.toml"), 0o600)
        let result = try await demo.cli().run("doctor", "--json")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let document = try #require(result.object)
        #expect(document["ok"] as? Bool == true)
        let checks = try #require(document["checks"] as? [[String: Any]])
        #expect(checks.allSatisfy { Set($0.keys) == ["name", "ok", "detail"] && $0["ok"] as? Bool == true }, "\(checks)")
        #expect(checks.compactMap { $0["name"] as? String }.prefix(6) == ["config", "database", "source ark", "source cold", "rates", "backups"])
        #expect(Set(checks.compactMap { $0["name"] as? String }).isSuperset(of: ["mode of database", "mode of config", "mode of source ark token_file"]))
        let ark = try #require(checks.first { $0["name"] as? String == "source ark" }?["detail"] as? String)
        #expect(ark.contains("answers like barkd, token accepted"), "\(ark)")
        // The demo's cold wallet is a descriptor: its scripthash route is asked, at the first
        // receive address of BIP84's test mnemonic (BIP84's own vector).
        let cold = try #require(checks.first { $0["name"] as? String == "source cold" }?["detail"] as? String)
        #expect(cold.contains("answers like Esplora") && cold.contains("the wallet's first receive address bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu has"), "\(cold)")
        #expect((checks.first { $0["name"] as? String == "rates" }?["detail"] as? String)?.contains("BTC/USD 65000") == true)
        // Asking stores nothing: no rate was stored, no source was ingested.
        #expect(try await sqlite(demo.folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM exchange_rates") == "0")
        #expect(try await sqlite(demo.folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM transactions") == "0")

        let text = try await demo.cli().run("doctor")
        #expect(text.status == 0)
        #expect(text.stdout.split(separator: "\n").count == checks.count)
        #expect(text.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("ok   ") }, "\(text.stdout)")
        #expect(!text.stdout.contains("demo-token") && !text.stderr.contains("demo-token"))
    }

    /// Four broken sources beside a working one: each failure's cause is named first, then the
    /// request and what came back; the rate provider is a web page; the config and one token
    /// file are readable by others.
    @Test("a source that is down, one with a bad token, one with a wrong URL and one that is not Esplora: each cause is named")
    func brokenSources() async throws {
        let demo = try await DemoSetup()
        let down = unusedLoopbackPort()
        try await WebSiteServer.run { site in
            let folder = demo.folder
            folder.write("wrong.token", "not-the-token\n")
            chmod(folder.file("wrong.token"), 0o644)
            folder.write("walletwatch.toml", """
                [[sources]]
                name = "ark"
                kind = "barkd"
                url = "\(demo.simulator.barkdURL("ark"))"
                token_file = "demo-barkd.token"

                [[sources]]
                name = "down"
                kind = "barkd"
                url = "http://127.0.0.1:\(down)"
                token_file = "demo-barkd.token"

                [[sources]]
                name = "badtoken"
                kind = "barkd"
                url = "\(demo.simulator.barkdURL("ark"))"
                token_file = "wrong.token"

                [[sources]]
                name = "wrongurl"
                kind = "esplora"
                url = "\(demo.simulator.baseURL)/api"
                addresses = ["bc1qdpekljy00yhuluyl4kehf5wq0stu2zkjsjdq86"]

                [[sources]]
                name = "notesplora"
                kind = "esplora"
                url = "\(site)"
                addresses = ["bc1qdpekljy00yhuluyl4kehf5wq0stu2zkjsjdq86"]

                [rates]
                provider = "coingecko"
                url = "\(site)"
                currencies = ["USD"]
                """)
            chmod(folder.file("walletwatch.toml"), 0o644)
            let result = try await demo.cli().run("doctor", "--json")
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            let document = try #require(result.object, "\(result.stdout)")
            #expect(document["ok"] as? Bool == false)
            let checks = try #require(document["checks"] as? [[String: Any]])
            func check(_ name: String) -> (ok: Bool, detail: String)? {
                checks.first { $0["name"] as? String == name }.map { ($0["ok"] as? Bool ?? true, $0["detail"] as? String ?? "") }
            }
            #expect(check("source ark")?.ok == true)
            let causes: [(String, String, String)] = [
                ("source down", "down or unreachable: GET http://127.0.0.1:\(down)/api/v1/wallet/balance", "is it running"),
                ("source badtoken", "token refused: GET \(demo.simulator.barkdURL("ark"))/api/v1/wallet/balance: HTTP 401", "check token_file"),
                ("source wrongurl", "wrong URL (no such path): GET \(demo.simulator.baseURL)/api/blocks/tip/height: HTTP 404", "https://mempool.space/api"),
                ("source notesplora", "answers, but not like an Esplora API: GET \(site)/blocks/tip/height: expected a block height", "<!DOCTYPE html>"),
                ("rates", "answers, but not like the CoinGecko API: GET \(site)/simple/price", "is the url"),
            ]
            for (name, cause, evidence) in causes {
                let found = try #require(check(name), "no check \(name) in \(checks)")
                #expect(!found.ok, "\(name)")
                #expect(found.detail.hasPrefix(cause), "\(name): \(found.detail)")
                #expect(found.detail.contains(evidence), "\(name): \(found.detail)")
            }
            #expect(check("mode of config")?.ok == false)
            #expect(check("mode of config")?.detail == "\(folder.file("walletwatch.toml")) can be read by other users (mode 0644); run chmod 600 \(folder.file("walletwatch.toml"))")
            #expect(check("mode of source badtoken token_file")?.ok == false)
            #expect(check("mode of source ark token_file")?.ok == true)
            #expect(check("mode of database")?.ok == true)
            #expect(!result.stdout.contains("not-the-token") && !result.stdout.contains("demo-token"), "a token in the output")

            let text = try await demo.cli().run("doctor")
            #expect(text.status == 1)
            let lines = text.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == checks.count)
            #expect(lines.contains { $0.hasPrefix("FAIL source down: down or unreachable") })
            #expect(lines.contains { $0.hasPrefix("ok   source ark: ") })
            #expect(text.stderr == """
                error: 7 check(s) failed: source down, source badtoken, source wrongurl, source notesplora, rates, mode of config, \
                mode of source badtoken token_file

                """, "\(text.stderr)")
            #expect(!text.stderr.contains("warning:"), "the doctor reports file modes as checks, not warnings")
        }
    }

    @Test("a config that does not parse is the failing check, with the file's mode; exit 1")
    func brokenConfig() async throws {
        let folder = TemporaryDirectory("walletwatch-doctor-config")
        folder.write("walletwatch.toml", "[backup]\nevery_hours = \"daily\"\n")
        chmod(folder.file("walletwatch.toml"), 0o600)
        let result = try await CLIRunner(folder: folder).run("doctor", "--json")
        #expect(result.status == 1)
        let checks = try #require(result.object?["checks"] as? [[String: Any]])
        #expect(checks.count == 2)
        #expect(checks.first?["name"] as? String == "config" && checks.first?["ok"] as? Bool == false)
        #expect((checks.first?["detail"] as? String)?.contains("backup.every_hours must be a whole number") == true, "\(checks)")
        #expect(checks.last?["name"] as? String == "mode of config" && checks.last?["ok"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("walletwatch.sqlite")), "no database was created")
    }
}
