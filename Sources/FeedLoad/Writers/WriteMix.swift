import Foundation

/// What a load writer does per operation, by relative weight: insert at the head, update an
/// existing item's title and payload, or delete one (`feedsim load --write-mix insert=8,update=1,delete=1`).
///
/// Each operation of a writer draws its kind from the writer's own seeded stream with probability
/// weight ÷ total. The default is inserts only.
public struct WriteMix: Hashable, Sendable, CustomStringConvertible {
    public var insert: Int
    public var update: Int
    public var delete: Int

    /// Inserts only.
    public static let insertOnly = WriteMix(insert: 1, update: 0, delete: 0)

    /// - Precondition: every weight ≥ 0 and their sum ≥ 1.
    public init(insert: Int, update: Int = 0, delete: Int = 0) {
        precondition(insert >= 0 && update >= 0 && delete >= 0 && insert + update + delete >= 1, "a write mix needs a weight")
        self.insert = insert
        self.update = update
        self.delete = delete
    }

    /// One operation of a writer.
    public enum Operation: String, Hashable, Sendable, CaseIterable {
        case insert, update, delete
    }

    /// The weights as `--write-mix` takes them: `insert=8,update=1,delete=1`.
    public var description: String { "insert=\(insert),update=\(update),delete=\(delete)" }

    /// Whether every operation inserts.
    public var isInsertOnly: Bool { update == 0 && delete == 0 }

    /// The operation for a uniform draw `u` in [0, 1): insert for the first insert ÷ total of the
    /// interval, then update, then delete.
    public func operation(forUnit u: Double) -> Operation {
        let target = u * Double(insert + update + delete)
        if target < Double(insert) { return .insert }
        if target < Double(insert + update) { return .update }
        return .delete
    }

    /// Parses `insert=8,update=1,delete=1`: comma-separated `name=weight` pairs, each name at most
    /// once, weights whole numbers 0 ... 1 000 000 with at least one above 0; names left out weigh 0.
    /// - Throws: ``WriteMixError`` saying what is wrong with `text`.
    public init(parsing text: String) throws {
        var weights: [Operation: Int] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw WriteMixError(reason: "expected name=weight, got '\(pair)' (e.g. insert=8,update=1,delete=1)")
            }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard let operation = Operation(rawValue: name) else {
                throw WriteMixError(reason: "unknown operation '\(name)' (insert, update or delete)")
            }
            guard weights[operation] == nil else { throw WriteMixError(reason: "'\(name)' given twice") }
            guard let weight = Int(parts[1].trimmingCharacters(in: .whitespaces)), (0...1_000_000).contains(weight)
            else {
                throw WriteMixError(reason: "weight of '\(name)' must be a whole number 0...1000000, got '\(parts[1])'")
            }
            weights[operation] = weight
        }
        let (insert, update, delete) = (weights[.insert] ?? 0, weights[.update] ?? 0, weights[.delete] ?? 0)
        guard insert + update + delete >= 1 else { throw WriteMixError(reason: "at least one weight must be above 0") }
        self.init(insert: insert, update: update, delete: delete)
    }
}

/// A `--write-mix` text that cannot be parsed.
public struct WriteMixError: Error, CustomStringConvertible, Sendable, Equatable {
    public var reason: String
    public var description: String { reason }
}
