import Foundation
import Testing
import TestSupport

@Suite("CLI: allocations, asset show and history, goal show")
struct AllocationCLITests {
    let folder = TemporaryDirectory("walletwatch-alloc")
    var cli: CLIRunner { CLIRunner(folder: folder) }

    func setUp() async throws {
        try await cli.run("init")
        try await cli.run("asset", "add", "Cash", "--currency", "USD")
        try await cli.run("goal", "add", "House", "--currency", "USD", "--target", "10000")
        try await cli.run("goal", "add", "Emergency fund", "--currency", "USD", "--target", "3000")
    }

    @Test("a dedicated asset collects deposits through Rule 1; asset history shows them")
    func dedicated() async throws {
        try await setUp()
        let allocated = try await cli.run("allocate", "Cash", "House=100%", "--json")
        #expect(allocated.status == 0, "\(allocated.stderr)")
        #expect((allocated.object?["allocations"] as? [[String: Any]])?.first?["amount"] as? Int == 0)
        try await cli.run("tx", "add", "Cash", "250.50", "--date", "2026-11-02T10:00:00Z")
        let shown = try #require(try await cli.run("asset", "show", "Cash", "--json").object)
        #expect(shown["allocated"] as? Int == 25050)
        #expect(shown["unallocated"] as? Int == 0)
        let allocations = try #require(shown["allocations"] as? [[String: Any]])
        #expect(allocations.first?["goal"] as? String == "House")
        #expect(allocations.first?["percent"] as? Double == 100)
        let history = try #require(try await cli.run("asset", "history", "Cash", "--json").objects)
        #expect(history.map { $0["amount"] as? Int } == [25050])
        #expect(history.first?["timestamp"] as? String == "2026-11-02T10:00:00.000Z")
        #expect(history.first?["goal"] as? String == "House")
        let goal = try #require(try await cli.run("goal", "show", "House", "--json").object)
        #expect(goal["funded"] as? Int == 25050)
        #expect((goal["assets"] as? [[String: Any]])?.first?["funded"] as? Int == 25050)
    }

    @Test("over-allocation is refused with exit 65 naming total, balance and excess")
    func overAllocation() async throws {
        try await setUp()
        try await cli.run("tx", "add", "Cash", "100", "--date", "2026-11-02")
        let refused = try await cli.run("allocate", "Cash", "House=60", "Emergency fund=50")
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("110.00 USD") && refused.stderr.contains("100.00 USD") && refused.stderr.contains("10.00 USD"))
        #expect(try await cli.run("asset", "history", "Cash", "--json").objects?.isEmpty == true)
        #expect(try await cli.run("allocate", "Cash", "House").status == 64)
        #expect(try await cli.run("allocate", "Cash", "Boat=1").status == 65)
    }

    @Test("a shared asset after a withdrawal shows a shortfall and proportional funding; cancel frees")
    func sharedShortfall() async throws {
        try await setUp()
        try await cli.run("tx", "add", "Cash", "100", "--date", "2026-11-02")
        #expect(try await cli.run("allocate", "Cash", "House=60%", "Emergency fund=40%").status == 0)
        try await cli.run("tx", "add", "Cash", "-50", "--date", "2026-11-03")
        let shown = try #require(try await cli.run("asset", "show", "Cash", "--json").object)
        #expect(shown["balance"] as? Int == 5000)
        #expect(shown["shortfall"] as? Int == 5000)
        let goal = try #require(try await cli.run("goal", "show", "House", "--json").object)
        #expect(goal["funded"] as? Int == 3000)
        #expect(try await cli.run("goal", "cancel", "Emergency fund").status == 0)
        let after = try #require(try await cli.run("asset", "show", "Cash", "--json").object)
        #expect(after["allocated"] as? Int == 6000)
        #expect(after["shortfall"] as? Int == 1000)
        let history = try #require(try await cli.run("asset", "history", "Cash", "--json").objects)
        #expect(history.last?["amount"] as? Int == 0)
        #expect(history.last?["goal"] as? String == "Emergency fund")
    }
}
