/// A fault that applies to the requests of a scope (an HTTP path, an Electrum method) and may
/// serve a limited number of times.
protocol ScopedFault: Sendable {
    associatedtype Kind: Sendable
    /// What the fault does.
    var kind: Kind { get }
    /// How many more requests it serves; nil = until cleared.
    var times: Int? { get set }
    /// Whether it applies to a request of `target`.
    func matches(_ target: String) -> Bool
}

extension ScopedFault {
    /// Whether `pattern` (exact, or a prefix ending in `*`; `*` alone matches everything) matches `target`.
    static func scope(_ pattern: String, matches target: String) -> Bool {
        if pattern.hasSuffix("*") { return target.hasPrefix(String(pattern.dropLast())) }
        return target == pattern
    }
}

/// The faults of one face, tried in the order added; each serves until cleared or its count runs out.
struct FaultList<Fault: ScopedFault>: Sendable {
    /// The faults still active.
    private(set) var faults: [Fault] = []

    mutating func add(_ fault: Fault) throws {
        if let times = fault.times, times < 1 { throw SimulatorError(.invalid, "times must be >= 1") }
        faults.append(fault)
    }

    mutating func clear() { faults.removeAll() }

    /// The first fault that matches `target`, counting it as served.
    mutating func take(for target: String) -> Fault.Kind? {
        guard let index = faults.firstIndex(where: { $0.matches(target) }) else { return nil }
        return serve(at: index)
    }

    /// Every fault that matches `target` and whose kind `applies` to it, in the order added, each
    /// counted as served (for faces where several faults change one answer together).
    mutating func takeAll(for target: String, where applies: (Fault.Kind) -> Bool) -> [Fault.Kind] {
        var kinds: [Fault.Kind] = []
        var index = 0
        while index < faults.count {
            let before = faults.count
            if faults[index].matches(target), applies(faults[index].kind) { kinds.append(serve(at: index)) }
            if faults.count == before { index += 1 }
        }
        return kinds
    }

    /// The kind of the fault at `index`, counting one more served (removed after its last).
    private mutating func serve(at index: Int) -> Fault.Kind {
        let kind = faults[index].kind
        if let times = faults[index].times {
            if times <= 1 { faults.remove(at: index) } else { faults[index].times = times - 1 }
        }
        return kind
    }
}
