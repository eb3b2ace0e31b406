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
///
/// The watch lives in the running state: `Geometry.awaitingReport(_, watching:)` names the ends
/// whose page waits for the next report (the geometry before the page is that report's, as no
/// report came in between), and `Running.topStall` / `.bottomStall` hold the report at which an end
/// stalled.
extension FeedController {
    /// One end's stall rule, on the values the running state holds.
    enum EndExtent {
        /// Takes the driver's new geometry for one end: decides the watch of a page applied there
        /// since `before` (the last report), or lifts the stall once the viewport moved or the
        /// content grew.
        /// - Parameters:
        ///   - current: the report.
        ///   - stall: the report at which the end stalled, `nil` when it did not.
        ///   - before: the report before a page was applied at this end, `nil` when none was.
        static func observe(_ current: Viewport, stall: inout Viewport?, watchedFrom before: Viewport?) {
            if let before, !moved(from: before, to: current), current.contentLength <= before.contentLength {
                stall = current
                return
            }
            if let stalledAt = stall,
                moved(from: stalledAt, to: current) || current.contentLength > stalledAt.contentLength
            {
                stall = nil
            }
        }

        /// Whether the viewport moved (content offset) or was resized (viewport length), exactly:
        /// a viewport at rest reports the same values frame after frame.
        static func moved(from old: Viewport, to new: Viewport) -> Bool {
            old.contentOffset != new.contentOffset || old.viewportLength != new.viewportLength
        }
    }
}
