extension CollectionLayout {
    /// An SVG drawing of the layout for a person to look at: the content area, every element
    /// (cells labelled with their item index; refresh view, header and footer shaded and labelled,
    /// a hidden one dashed and faint; transforms and alpha applied) painted in zIndex order
    /// (lowest first, index order among equals, so the zoomed carousel item is on top), and
    /// `viewport` outlined in red. The refresh view above the content is inside the drawing.
    ///
    /// Large feeds draw only the region around `viewport` (one viewport of margin on each
    /// side) when the layout has more than `maxElements` items, so the file stays small.
    /// - Returns: a standalone SVG document in content coordinates (points).
    /// - Complexity: O(k) for k drawn elements (a rect query), plus O(n) when the whole content is drawn.
    public func svgDrawing(viewport: Rect, maxElements: Int = 5_000) -> String {
        let content = contentSize
        let region: Rect
        if itemCount <= maxElements {
            let refresh = attributesForSupplementaryView(ofKind: .refresh)?.frame
            let minX = min(0, viewport.minX, refresh?.minX ?? 0)
            let minY = min(0, viewport.minY, refresh?.minY ?? 0)
            region = Rect(
                x: minX, y: minY,
                width: max(content.width, viewport.maxX) - minX,
                height: max(content.height, viewport.maxY) - minY)
        } else {
            region = Rect(
                x: viewport.minX - viewport.width, y: viewport.minY - viewport.height,
                width: viewport.width * 3, height: viewport.height * 3)
        }
        let margin = 10.0
        func n(_ value: Double) -> String {
            // Past 10^15 two decimals mean nothing and `value × 100` leaves Int (it trapped):
            // Swift's shortest form, which SVG reads (`1e+20`). A non-finite value is never asked
            // for (`svgDrawing`'s precondition).
            guard abs(value) < 1e15 else { return String(value) }
            return value == value.rounded() ? String(Int(value)) : format2(value)
        }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(n(region.minX - margin)) \(n(region.minY - margin)) \
            \(n(region.width + 2 * margin)) \(n(region.height + 2 * margin))" \
            width="\(n(region.width + 2 * margin))" height="\(n(region.height + 2 * margin))" font-family="sans-serif">

            """
        svg += "<rect x=\"0\" y=\"0\" width=\"\(n(content.width))\" height=\"\(n(content.height))\" fill=\"#f4f4f4\" stroke=\"#999\"/>\n"
        let elements = itemCount <= maxElements ? allAttributes() : attributesForElements(in: region)
        let painted = elements.enumerated().sorted { ($0.element.zIndex, $0.offset) < ($1.element.zIndex, $1.offset) }
        for element in painted.map(\.element) {
            var frame = element.frame
            let t = element.transform
            if t != .identity {
                let w = frame.width * t.scaleX
                let h = frame.height * t.scaleY
                frame = Rect(x: frame.midX - w / 2 + t.translateX, y: frame.midY - h / 2 + t.translateY, width: w, height: h)
            }
            let isCell = element.category == .cell
            let fill = isCell ? "#8ab4f8" : "#c8c8c8"
            svg += "<rect x=\"\(n(frame.minX))\" y=\"\(n(frame.minY))\" width=\"\(n(frame.width))\" height=\"\(n(frame.height))\" "
            let opacity = element.isHidden ? 0.15 : element.alpha
            let dash = element.isHidden ? " stroke-dasharray=\"3 3\"" : ""
            svg += "fill=\"\(fill)\" fill-opacity=\"\(n(opacity))\" stroke=\"#1a4d99\" stroke-width=\"0.5\"\(dash)/>\n"
            let label = (isCell ? String(element.indexPath.item) : element.category.name) + (element.isHidden ? " (hidden)" : "")
            let size = max(6, min(14, min(frame.width, frame.height) / 3))
            svg += "<text x=\"\(n(frame.midX))\" y=\"\(n(frame.midY))\" font-size=\"\(n(size))\" text-anchor=\"middle\" "
            svg += "dominant-baseline=\"middle\">\(label)</text>\n"
        }
        svg += "<rect x=\"\(n(viewport.minX))\" y=\"\(n(viewport.minY))\" width=\"\(n(viewport.width))\" height=\"\(n(viewport.height))\" "
        svg += "fill=\"none\" stroke=\"#d93025\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n</svg>\n"
        return svg
    }
}

/// `value` with at most two decimals (trailing zeros dropped), without Foundation.
private func format2(_ value: Double) -> String {
    let scaled = (value * 100).rounded()
    let whole = Int(scaled / 100)
    let cents = Int(abs(scaled).truncatingRemainder(dividingBy: 100))
    let sign = value < 0 && whole == 0 && cents != 0 ? "-" : ""
    if cents == 0 { return "\(sign)\(whole)" }
    let text = cents < 10 ? "0\(cents)" : "\(cents)"
    return "\(sign)\(whole)." + (text.hasSuffix("0") ? String(text.dropLast()) : text)
}
