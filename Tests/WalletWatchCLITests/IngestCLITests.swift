import Foundation
import Testing
import TestSupport
import WalletWatchSim

@Suite("CLI: ingest and balance against the simulator")
struct IngestCLITests {
    @Test("ingest prints CLI.md's JSON; a failing source makes it exit 1 while the other is stored")
    func ingest() async throws {
        let demo = try await DemoSetup()
        let result = try await demo.cli().run("ingest", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(result.object)
        #expect(document["ok"] as? Bool == true)
        let sources = try #require(document["sources"] as? [[String: Any]])
        #expect(sources.map { $0["name"] as? String } == ["ark", "cold"])
        // cold: the two listed addresses' 62 and the HD wallet's 7 deposits and 3 spends.
        #expect(sources.map { $0["new"] as? Int } == [15, 72])
        #expect(Set(sources[0].keys).isSuperset(of: ["name", "ok", "new", "updated", "dropped", "auto_allocated", "error", "duration_ms"]))
        #expect(sources[0]["error"] is NSNull)

        try await demo.simulator.addFault(.status(500), at: "/esplora/*")
        let failed = try await demo.cli("2026-11-21T12:01:00Z").run("ingest", "--json")
        #expect(failed.status == 1)
        let partial = try #require(failed.object)
        #expect(partial["ok"] as? Bool == false)
        let cold = try #require((partial["sources"] as? [[String: Any]])?.last)
        #expect((cold["error"] as? String)?.hasPrefix("source 'cold': GET ") == true)
        #expect(failed.stderr.contains("error: source 'cold'"))
        #expect(!failed.stdout.contains("demo-token") && !failed.stderr.contains("demo-token"))
    }

    @Test("balance within 5 minutes makes no request; stale fallback exits 0 with a warning")
    func balance() async throws {
        let demo = try await DemoSetup()
        try await demo.cli().run("ingest")
        await demo.simulator.resetRequests()
        let cached = try await demo.cli("2026-11-21T12:04:00Z").run("balance", "--json")
        #expect(cached.status == 0)
        #expect(await demo.simulator.requests().isEmpty)
        let document = try #require(cached.object)
        let assets = try #require(document["assets"] as? [[String: Any]])
        let ark = try #require(assets.first { $0["name"] as? String == "Ark wallet" })
        #expect(ark["balance"] as? Int == 482_045)
        #expect(ark["from_cache"] as? Bool == true && ark["stale"] as? Bool == false)
        #expect(ark["age_seconds"] as? Int == 240)
        let sources = try #require(document["sources"] as? [[String: Any]])
        #expect((sources.first?["ark"] as? [String: Any])?["spendable_sat"] as? Int == 482_045)
        #expect(sources.last?["ark"] is NSNull)
        #expect(cached.stderr.contains("VTXO"), "the VTXO close to expiry is warned about")

        try await demo.simulator.addFault(.status(503), at: "/barkd/ark/*")
        let stale = try await demo.cli("2026-11-21T12:30:00Z").run("balance", "--json")
        #expect(stale.status == 0)
        #expect(stale.stderr.contains("warning: ") && stale.stderr.contains("30m ago"))
        let staleArk = try #require((stale.object?["assets"] as? [[String: Any]])?.first { $0["name"] as? String == "Ark wallet" })
        #expect(staleArk["stale"] as? Bool == true)
    }
}

@Suite("CLI: tags kept across refreshes, BIP-329 round trip")
struct TagCLITests {
    @Test("a pending Ark movement and a mempool transaction, tagged, keep their tags through two ingests that confirm them")
    func tagsSurviveConfirmation() async throws {
        let demo = try await DemoSetup()
        try await demo.cli().run("ingest")
        let mempool = try #require(try await demo.cli().run("tx", "list", "--asset", "Cold storage", "--status", "pending", "--json").objects?.first?["txid"] as? String)
        #expect(try await demo.cli().run("tag", "add", "ark:ark:12", "rent", "shared").status == 0)
        #expect(try await demo.cli().run("tag", "add", mempool, "rent").status == 0)
        #expect(try await demo.cli().run("tag", "add", "no-such-txid", "rent").status == 65)

        _ = try await demo.simulator.updateMovement(id: 12, in: "ark", MovementUpdate(status: .successful))
        #expect(try await demo.cli("2026-11-21T12:10:00Z").run("ingest").status == 0)
        try await demo.simulator.confirmEsploraTransaction(mempool, height: 870_001)
        #expect(try await demo.cli("2026-11-21T12:20:00Z").run("ingest").status == 0)

        let tagged = try #require(try await demo.cli().run("tx", "list", "--tag", "rent", "--json").objects)
        #expect(Set(tagged.compactMap { $0["txid"] as? String }) == ["ark:ark:12", mempool])
        #expect(tagged.allSatisfy { $0["status"] as? String == "confirmed" })
        #expect(tagged.allSatisfy { ($0["tags"] as? [String])?.contains("rent") == true })
        let tags = try #require(try await demo.cli().run("tag", "list", "--json").objects)
        #expect(tags.first { $0["name"] as? String == "rent" }?["transactions"] as? Int == 2)
        #expect(tags.first { $0["name"] as? String == "shared" }?["transactions"] as? Int == 1)
    }

    @Test("a BIP-329 export imported into a fresh database restores the tags, also for txids ingested after the import")
    func bip329RoundTrip() async throws {
        let demo = try await DemoSetup()
        try await demo.cli().run("ingest")
        try await demo.cli().run("tag", "add", "ark:ark:3", "salary")
        try await demo.cli().run("tag", "add", "ark:ark:4", "groceries", "lightning")
        let export = demo.folder.file("labels.jsonl")
        #expect(try await demo.cli().run("tag", "export", "--format", "bip329", export).status == 0)
        let lines = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.contains(#"{"type":"tx","ref":"ark:ark:4","label":"groceries, lightning"}"#))

        // A fresh database: import first, ingest afterwards.
        let fresh = try await DemoSetup()
        let imported = try await fresh.cli().run("tag", "import", export, "--json")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.object?["waiting"] as? Int == 3)
        #expect(try await fresh.cli().run("ingest").status == 0)
        let tagged = try #require(try await fresh.cli().run("tx", "show", "ark:ark:4", "--json").object)
        #expect(tagged["tags"] as? [String] == ["groceries", "lightning"])
        #expect(try await fresh.cli().run("tag", "list", "--json").objects?.first { $0["name"] as? String == "salary" }?["transactions"] as? Int == 1)

        // A file with a malformed line imports nothing without --skip-invalid.
        let broken = fresh.folder.write("broken.jsonl", "{\"type\":\"tx\",\"ref\":\"ark:ark:5\",\"label\":\"x\"}\n{oops\n")
        let refused = try await fresh.cli().run("tag", "import", broken)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("line 2"))
        #expect(try await fresh.cli().run("tx", "show", "ark:ark:5", "--json").object?["tags"] as? [String] == [])
        #expect(try await fresh.cli().run("tag", "import", broken, "--skip-invalid").status == 0)
        #expect(try await fresh.cli().run("tx", "show", "ark:ark:5", "--json").object?["tags"] as? [String] == ["x"])
    }
}
