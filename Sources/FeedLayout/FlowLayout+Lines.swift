extension FlowLayout {
    /// Re-lays every item from `start`, which must be the first item of a line (or 0): drops the
    /// frames and lines from there and breaks lines again.
    /// - Complexity: O(items from `start`).
    func relayout(from start: Int) {
        let lineIndex = partitionPoint(in: 0..<lines.count) { lines[$0].firstItem >= start }
        var position = lineIndex < lines.count ? lines[lineIndex].position : firstLinePosition
        if lineIndex == lines.count, let last = lines.last {
            position = last.position + last.extent + configuration.resolvedLineSpacing
        }
        lines.removeSubrange(lineIndex...)
        frames.removeSubrange(min(start, frames.count)...)
        frames.reserveCapacity(sizes.count)
        let spacing = configuration.spacing
        var first = start
        while first < sizes.count {
            // Greedy break: add items while widths + minimum spacing fit.
            var used = extents(first).cross
            var extent = extents(first).main
            var end = first + 1
            while end < sizes.count {
                let next = extents(end)
                guard used + spacing + next.cross <= available else { break }
                used += spacing + next.cross
                extent = max(extent, next.main)
                end += 1
            }
            placeLine(first..<end, position: position, extent: extent, used: used, isLast: end == sizes.count)
            lines.append(Line(firstItem: first, position: position, extent: extent))
            position += extent + configuration.resolvedLineSpacing
            first = end
        }
    }

    /// Appends the frames of one line's items, spreading the leftover space by the alignment rule.
    private func placeLine(_ items: Range<Int>, position: Double, extent: Double, used: Double, isLast: Bool) {
        let spacing = configuration.spacing
        let leftover = available - used
        var cross = crossLeading
        var gap = spacing
        switch configuration.alignment {
        case .left:
            break
        case .justified where !isLast:
            if items.count == 1 {
                cross += leftover / 2
            } else {
                gap = spacing + leftover / Double(items.count - 1)
            }
        case .justified:
            let width = extents(items.lowerBound).cross
            if width > 0, items.allSatisfy({ extents($0).cross == width }) {
                // A full line of this width holds q items; use its gap so columns line up.
                let q = Int(((available + spacing) / (width + spacing)).rounded(.down))
                if q > 1, q > items.count {
                    gap = (available - Double(q) * width) / Double(q - 1)
                }
            }
        }
        for index in items {
            let item = extents(index)
            frames.append(
                frame(
                    cross: cross, main: position + (extent - item.main) / 2,
                    crossExtent: item.cross, mainExtent: item.main))
            cross += item.cross + gap
        }
    }
}
