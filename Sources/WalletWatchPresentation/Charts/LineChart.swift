import WalletWatchCore

/// A line chart of money over time, drawn as SVG by walletwatch itself (no script, no external
/// asset): the web page inlines it and `report --svg` writes it to a file. Amounts stay integer
/// minor units; only the drawing coordinates are floating point.
public struct LineChart: Sendable {
    /// One line. Nil values are days without a known value: the line breaks there.
    public struct Series: Sendable {
        public let label: String
        public let color: String
        public let values: [Int128?]
        /// Shade the area under the line.
        public let filled: Bool
        /// Draw the line dashed (a target).
        public let dashed: Bool

        public init(label: String, color: String, values: [Int128?], filled: Bool = false, dashed: Bool = false) {
            self.label = label
            self.color = color
            self.values = values
            self.filled = filled
            self.dashed = dashed
        }
    }

    public let title: String
    /// A line under the title (the latest figures).
    public let subtitle: String
    /// The x positions: one instant per value of every series.
    public let instants: [Instant]
    public let series: [Series]
    /// The currency of the values (y axis).
    public let currency: Currency
    /// Said under the chart when set (such as which dates had no rate).
    public let note: String?

    /// The drawing's size in SVG units: a phone shows it at about this width, so 13-unit text stays readable.
    public static let width = 480
    /// The height of one chart; a file stacks them.
    public static let height = 260
    /// Colours that stay readable on light and dark backgrounds.
    public static let palette = ["#2e86de", "#e67e22", "#16a085", "#8e44ad", "#c0392b", "#7f8c8d"]

    public init(title: String, subtitle: String, instants: [Instant], series: [Series], currency: Currency, note: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.instants = instants
        self.series = series
        self.currency = currency
        self.note = note
    }

    /// The chart as an `<svg>` element that scales to its container (for a page).
    public var inlineSVG: String {
        "<svg class=\"chart\" viewBox=\"0 0 \(Self.width) \(Self.height)\" role=\"img\" aria-label=\"\(XMLText.escape(title))\" "
            + "font-family=\"system-ui, -apple-system, Segoe UI, Roboto, sans-serif\" font-size=\"13\">\(body)</svg>"
    }

    // MARK: - Drawing

    private static let left = 48.0, right = 14.0, bottom = 40.0
    /// The plot starts under the title, the subtitle and the legend's rows.
    private var top: Double { 66 + 18 * Double(legendLayout.rows - 1) }
    private var plotWidth: Double { Double(Self.width) - Self.left - Self.right }
    private var plotHeight: Double { Double(Self.height) - top - Self.bottom }

    /// The drawing, without the enclosing `<svg>`.
    var body: String {
        var svg = "<text x=\"12\" y=\"20\" font-size=\"15\" font-weight=\"600\" fill=\"currentColor\">\(XMLText.escape(title))</text>"
        svg += "<text x=\"12\" y=\"38\" fill=\"currentColor\" fill-opacity=\"0.7\">\(XMLText.escape(subtitle))</text>"
        let known = series.flatMap { $0.values.compactMap { $0 } }
        guard instants.count > 0, !known.isEmpty else {
            return svg + "<text x=\"\(Self.width / 2)\" y=\"\(Self.height / 2 + 10)\" text-anchor=\"middle\" fill=\"currentColor\" fill-opacity=\"0.6\">"
                + "\(XMLText.escape(note ?? "nothing to draw yet"))</text>"
        }
        let scale = AxisScale(low: min(0, known.min()!), high: max(known.max()!, 1), exponent: currency.exponent)
        svg += yAxis(scale) + xAxis()
        // The first series (the total, filled) is drawn first and wider, so that an asset
        // holding nearly all of it runs inside the total's line instead of hiding it or under it.
        for line in series { svg += draw(line, scale) }
        svg += legend()
        if let note {
            svg += "<text x=\"\(Self.width - 16)\" y=\"\(Self.height - 6)\" text-anchor=\"end\" font-size=\"11\" fill=\"currentColor\" fill-opacity=\"0.7\">\(XMLText.escape(note))</text>"
        }
        return svg
    }

    private func x(_ index: Int) -> Double {
        guard let first = instants.first, let last = instants.last, last > first else { return Self.left + plotWidth / 2 }
        let span = Double(last.millisecondsSinceEpoch - first.millisecondsSinceEpoch)
        return Self.left + plotWidth * Double(instants[index].millisecondsSinceEpoch - first.millisecondsSinceEpoch) / span
    }

    private func y(_ value: Int128, _ scale: AxisScale) -> Double {
        // A position on the screen only: the offset as a fraction in millionths, then a Double.
        let millionths = Rounding.halfEven(value - scale.low, times: 1_000_000, over: scale.high - scale.low) ?? 0
        return top + plotHeight * (1 - Double(Int64(clamping: millionths)) / 1_000_000)
    }

    private func yAxis(_ scale: AxisScale) -> String {
        var svg = ""
        for tick in scale.ticks {
            let position = Self.coordinate(y(tick, scale))
            svg += "<line x1=\"\(Self.coordinate(Self.left))\" x2=\"\(Self.coordinate(Self.left + plotWidth))\" y1=\"\(position)\" y2=\"\(position)\" stroke=\"currentColor\" stroke-opacity=\"\(tick == 0 ? "0.45" : "0.15")\"/>"
            svg += "<text x=\"\(Self.coordinate(Self.left - 6))\" y=\"\(position)\" dy=\"4\" text-anchor=\"end\" fill=\"currentColor\" fill-opacity=\"0.7\">\(XMLText.escape(scale.label(tick)))</text>"
        }
        return svg
    }

    /// Up to four dates along the bottom, evenly spread over the points.
    private func xAxis() -> String {
        let count = min(4, instants.count)
        let indexes = count <= 1 ? [0] : Set((0..<count).map { $0 * (instants.count - 1) / (count - 1) }).sorted()
        return indexes.map { index in
            let anchor = indexes.count == 1 ? "middle" : index == 0 ? "start" : index == instants.count - 1 ? "end" : "middle"
            return "<text x=\"\(Self.coordinate(x(index)))\" y=\"\(Self.height - 22)\" text-anchor=\"\(anchor)\" fill=\"currentColor\" fill-opacity=\"0.7\">\(instants[index].day)</text>"
        }.joined()
    }

    private func draw(_ line: Series, _ scale: AxisScale) -> String {
        var svg = ""
        for segment in segments(line.values) {
            let points = segment.map { "\(Self.coordinate(x($0.index))),\(Self.coordinate(y($0.value, scale)))" }
            // A single known day is a dot, not an invisible line.
            let drawn = segment.count == 1 ? points + ["\(Self.coordinate(x(segment[0].index) + 2)),\(Self.coordinate(y(segment[0].value, scale)))"] : points
            if line.filled {
                let base = Self.coordinate(y(0, scale))
                let area = ["\(Self.coordinate(x(segment.first!.index))),\(base)"] + points + ["\(Self.coordinate(x(segment.last!.index))),\(base)"]
                svg += "<polygon points=\"\(area.joined(separator: " "))\" fill=\"\(line.color)\" fill-opacity=\"0.18\" stroke=\"none\"/>"
            }
            svg += "<polyline points=\"\(drawn.joined(separator: " "))\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"\(line.dashed ? "1.5" : line.filled ? "4" : "2")\""
                + (line.dashed ? " stroke-dasharray=\"6 4\"" : "") + " stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
        }
        return svg
    }

    /// Runs of consecutive known values.
    private func segments(_ values: [Int128?]) -> [[(index: Int, value: Int128)]] {
        var result: [[(index: Int, value: Int128)]] = []
        var current: [(index: Int, value: Int128)] = []
        for (index, value) in values.enumerated() {
            if let value { current.append((index, value)) } else if !current.isEmpty { result.append(current); current = [] }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The series' names under the subtitle, left to right, wrapping to more rows when needed.
    private var legendLayout: (entries: [(series: Series, x: Double, row: Int)], rows: Int) {
        var entries: [(series: Series, x: Double, row: Int)] = []
        var position = 12.0, row = 0
        for line in series {
            let width = Double(line.label.count) * 7.5 + 32
            if position > 12, position + width > Double(Self.width) - Self.right {
                position = 12
                row += 1
            }
            entries.append((line, position, row))
            position += width
        }
        return (entries, row + 1)
    }

    private func legend() -> String {
        legendLayout.entries.map { entry in
            let y = 52.0 + 18 * Double(entry.row)
            return "<line x1=\"\(Self.coordinate(entry.x))\" x2=\"\(Self.coordinate(entry.x + 14))\" y1=\"\(Self.coordinate(y))\" y2=\"\(Self.coordinate(y))\" stroke=\"\(entry.series.color)\" stroke-width=\"3\""
                + (entry.series.dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>"
                + "<text x=\"\(Self.coordinate(entry.x + 18))\" y=\"\(Self.coordinate(y + 4))\" fill=\"currentColor\">\(XMLText.escape(entry.series.label))</text>"
        }.joined()
    }

    /// A coordinate with one decimal: short, and exact enough for a screen.
    static func coordinate(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}

/// The y axis: from `low` to `high` in minor units, widened to round ticks.
struct AxisScale {
    let low: Int128
    let high: Int128
    let step: Int128
    let exponent: Int

    init(low: Int128, high: Int128, exponent: Int) {
        let step = AxisScale.niceStep((high - low) / 4, exponent: exponent)
        self.step = step
        self.low = low >= 0 ? 0 : -((-low + step - 1) / step) * step
        self.high = max(self.low + step, (high + step - 1) / step * step)
        self.exponent = exponent
    }

    var ticks: [Int128] {
        var ticks: [Int128] = []
        var tick = low
        while tick <= high {
            ticks.append(tick)
            tick += step
        }
        return ticks
    }

    /// A tick in major units, without decimals once a step is a whole major unit or more, and
    /// in thousands (`50k`) once a step is a whole thousand.
    func label(_ tick: Int128) -> String {
        let major = Currency.powerOfTen(exponent)
        if tick == 0 { return "0" }
        if step % (1000 * major) == 0 { return "\(tick / (1000 * major))k" }
        let whole = step % major == 0
        var text = Money.majorString(tick, exponent: exponent)
        if whole, let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
        return text
    }

    /// 1, 2 or 5 times a power of ten, at least `raw` (and at least one minor unit).
    static func niceStep(_ raw: Int128, exponent: Int) -> Int128 {
        var magnitude: Int128 = 1
        while magnitude <= raw / 10 { magnitude *= 10 }
        for factor: Int128 in [1, 2, 5, 10] where magnitude * factor >= raw { return max(1, magnitude * factor) }
        return max(1, magnitude * 10)
    }
}

/// Text safe inside XML (SVG) elements and attribute values.
public enum XMLText {
    /// `text` with &, <, >, " and ' written as entities.
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
