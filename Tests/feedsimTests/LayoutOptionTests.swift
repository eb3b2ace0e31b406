import FeedLayout
import Testing

@testable import feedsim

/// `--layout` names the layout (an item's `kind` is its reuse identifier); `--kind` stays an alias.
@Suite struct LayoutOptionTests {
    func configuration(_ tokens: [String], defaultKind: LayoutKind? = nil) throws -> String {
        let arguments = try ParsedArguments(tokens, specs: LayoutOptions.specs)
        return try LayoutOptions.configuration(from: arguments, defaultKind: defaultKind).kind.rawValue
    }

    @Test func layoutAndItsOldNameKindChooseTheSameLayout() throws {
        #expect(try configuration(["--layout", "mosaic"]) == "mosaic")
        #expect(try configuration(["--kind", "mosaic"]) == "mosaic")
        #expect(try configuration([], defaultKind: .grid) == "grid")
    }

    @Test func bothNamesAtOnceOrNeitherWithoutADefaultIsBadUsage() throws {
        #expect(throws: UsageError.self) { try configuration(["--layout", "grid", "--kind", "grid"]) }
        #expect(throws: UsageError.self) { try configuration([]) }
        #expect(runMain(["feedsim", "layout", "--layout", "grid", "--kind", "list", "--count", "3", "--viewport", "100x100"], commands: commands) == 64)
        #expect(runMain(["feedsim", "layout", "--layout", "grid", "--count", "3", "--viewport", "100x100"], commands: commands) == 0)
    }

    @Test func unknownLayoutIsNamedWithTheOptionGiven() throws {
        do {
            _ = try configuration(["--layout", "spiral"])
            Issue.record("spiral is no layout")
        } catch let error as UsageError {
            // A value the option cannot take: a usage error (exit 64) naming the option and the layouts.
            #expect(error.message == "--layout: unknown layout 'spiral' (grid, flow, mosaic, carousel, strip, waterfall, list)")
        }
    }
}
