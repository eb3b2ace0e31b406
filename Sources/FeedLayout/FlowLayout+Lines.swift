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
        case .justified:
            // PSTCollectionView's rule (see the type's doc comment): the last line counts, after
            // its own items, as many invisible copies of its last item as still fit, then the
            // whole count is justified; a count of one is centred.
            var count = items.count
            var rest = leftover
            if isLast {
                let pitch = spacing + extents(items.upperBound - 1).cross
                if pitch > 0, leftover > 0 {
                    // Capped: a zero-width item with a tiny spacing would otherwise count billions.
                    let extra = min(((leftover + 1e-9) / pitch).rounded(.down), 1e9)
                    count += Int(extra)
                    rest = max(0, leftover - extra * pitch)
                }
            }
            if count == 1 {
                cross += rest / 2
            } else {
                gap = spacing + rest / Double(count - 1)
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
