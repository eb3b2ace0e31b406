import FeedModel

/// Pages that add no extent: content that stays short however many items it holds (a strip that
/// squeezes n items into one viewport-wide row, a grid with more columns than items).
///
/// The short-content rule fires More while the content ends inside the viewport, expecting each
/// page to bring the end closer; in such a layout it never does, and More would load the whole
/// feed without any scrolling. So each end is watched: when a page was applied there (More's
/// append at the bottom, Init's list replacing an empty one counts too; a prepend at the top) and
/// the geometry reported after it has the same content offset and viewport length and a content
/// length no greater than before, that end *stalls*: no load fires there until the viewport moves
/// (content offset or viewport length differs from the stalled report) or the content grows past
/// the stalled length. A replace of a non-empty list, or page dropping at either end, ends the
/// watch and clears the stall of the end that became loadable (the content length no longer
/// measures what a page added).
extension FeedController {
    /// One end's watch over what its last page added along the scroll axis.
    struct ExtentWatch: Sendable {
        /// The geometry reported before a page was applied at this end, until the driver reports
        /// the geometry after it.
        var before: Viewport?
        /// The geometry after a page that added no extent; loads at this end wait while it is set.
        var stalledAt: Viewport?

        var isStalled: Bool { stalledAt != nil }

        /// Starts watching the page about to be applied; keeps the earliest geometry when several
        /// pages are applied before the next report.
        mutating func watch(from viewport: Viewport?) {
            if before == nil { before = viewport }
        }

        /// Forgets the watch and the stall.
        mutating func reset() {
            before = nil
            stalledAt = nil
        }

        /// Takes the driver's new geometry: decides a pending watch, or lifts the stall once the
        /// viewport moved or the content grew.
        mutating func observe(_ current: Viewport) {
            if let before {
                self.before = nil
                if !Self.moved(from: before, to: current), current.contentLength <= before.contentLength {
                    stalledAt = current
                    return
                }
            }
            if let stalledAt, Self.moved(from: stalledAt, to: current) || current.contentLength > stalledAt.contentLength {
                self.stalledAt = nil
            }
        }

        /// Whether the viewport moved (content offset) or was resized (viewport length), exactly:
        /// a viewport at rest reports the same values frame after frame.
        static func moved(from old: Viewport, to new: Viewport) -> Bool {
            old.contentOffset != new.contentOffset || old.viewportLength != new.viewportLength
        }
    }
}
