import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchPresentation

@Suite("SVG charts")
struct ChartTests {
    @Test("y ticks are round numbers in major units; thousands read 50k; zero reads 0")
    func axis() {
        let dollars = AxisScale(low: 0, high: 29_500, exponent: 2)
        #expect(dollars.ticks == [0, 10_000, 20_000, 30_000])
        #expect(dollars.ticks.map(dollars.label) == ["0", "100", "200", "300"])
        let large = AxisScale(low: 0, high: 9_031_192, exponent: 2)
        #expect(large.ticks.map(large.label) == ["0", "50k", "100k"])
        let cents = AxisScale(low: 0, high: 25, exponent: 2)
        #expect(cents.ticks.map(cents.label) == ["0", "0.10", "0.20", "0.30"])
        let negative = AxisScale(low: -1_500, high: 4_000, exponent: 2)
        #expect(negative.ticks.first == -2_000 && negative.ticks.contains(0))
    }

    @Test("a day without a value breaks the line; names are escaped")
    func gaps() {
        let instants = (1...4).map { Instant.at("2026-10-0\($0)T23:59:59.999Z") }
        let chart = LineChart(title: "Car & <bike>", subtitle: "s", instants: instants,
                              series: [.init(label: "a\"b", color: "#000", values: [100, nil, 300, 400], filled: true)], currency: .usd,
                              note: "no rate known on 1 day(s)")
        let svg = chart.inlineSVG
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
        #expect(svg.components(separatedBy: "<polygon").count - 1 == 2)
        #expect(svg.contains("Car &amp; &lt;bike&gt;") && svg.contains("a&quot;b") && !svg.contains("<bike>"))
        #expect(svg.contains("no rate known on 1 day(s)"))
        let empty = LineChart(title: "t", subtitle: "s", instants: [], series: [], currency: .usd).inlineSVG
        #expect(empty.contains("nothing to draw yet"))
    }
}
