import FeedModel
import Testing

@testable import FeedEngine

/// ``ItemIDTable`` and ``ItemIDSet`` against the standard library's `Dictionary` and `Set` as the
/// oracle: random inserts, updates, removals and clears, seeded, on key sets chosen to collide
/// (dense runs, multiples of a power of two, negatives, the extremes), checking every answer.
@Suite struct ItemIDTableTests {
    /// Keys drawn from a few shapes: small dense ids (long probe runs), ids 2³² apart (the same
    /// low bits), negative ids and the two extremes.
    private static func key(_ rng: inout SplitMix64, shape: Int) -> Int64 {
        switch shape {
        case 0: return Int64(rng.next() % 64)
        case 1: return Int64(rng.next() % 32) << 32
        case 2: return -Int64(rng.next() % 100)
        default:
            switch rng.next() % 4 {
            case 0: return .min
            case 1: return .max
            default: return Int64(bitPattern: rng.next())
            }
        }
    }

    @Test(arguments: 0..<4)
    func tableAnswersAsADictionaryAfterEveryOperation(shape: Int) {
        var rng = SplitMix64(seed: 0x1D7A_B1E0 &+ UInt64(shape))
        var table = ItemIDTable<Int>()
        var oracle: [Int64: Int] = [:]
        for step in 0..<20_000 {
            let key = Self.key(&rng, shape: shape)
            switch rng.next() % 10 {
            case 0...4:
                let value = Int(rng.next() % 1000)
                #expect(table.updateValue(value, forKey: key) == oracle.updateValue(value, forKey: key))
            case 5...7:
                #expect(table.removeValue(forKey: key) == oracle.removeValue(forKey: key))
            case 8:
                #expect(table[key] == oracle[key])
                #expect(table.contains(key) == (oracle[key] != nil))
            default:
                if rng.next() % 200 == 0 {
                    let keep = rng.next() % 2 == 0
                    table.removeAll(keepingCapacity: keep)
                    oracle.removeAll()
                } else {
                    table[key] = nil
                    oracle[key] = nil
                }
            }
            #expect(table.count == oracle.count)
            if step % 500 == 0 {
                // Every key the oracle holds is found, and the table holds nothing else.
                for (key, value) in oracle { #expect(table[key] == value) }
                var seen: [Int64: Int] = [:]
                table.forEach { key, value in seen[key] = value }
                #expect(seen == oracle)
                #expect(table.sortedKeys() == oracle.keys.sorted())
            }
        }
    }

    @Test func setAnswersAsASetOfTheSameIDs() {
        var rng = SplitMix64(seed: 42)
        var set = ItemIDSet(minimumCapacity: 4)
        var oracle = Set<Int64>()
        for _ in 0..<20_000 {
            let id = Self.key(&rng, shape: Int(rng.next() % 4))
            if rng.next() % 3 == 0 {
                #expect(set.remove(id) == (oracle.remove(id) != nil))
            } else {
                #expect(set.insert(id) == oracle.insert(id).inserted)
            }
            #expect(set.count == oracle.count)
            #expect(set.contains(id) == oracle.contains(id))
        }
        #expect(set.sorted() == oracle.sorted())
        let copy = ItemIDSet(oracle.sorted())
        #expect(copy.sorted() == oracle.sorted())
    }

    @Test func removingFromTheMiddleOfAProbeRunKeepsTheRestFindable() {
        // Three ids with the same home slot in a table of 8 (the top 3 bits of id × 2⁶⁴/φ,
        // computed here independently), so they form one probe run; removing the first and the
        // middle one must leave the others findable (backward-shift deletion).
        func home(_ id: Int64) -> UInt64 { (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> 61 }
        let keys = Array((Int64(0)..<200).filter { home($0) == home(0) }.prefix(3))
        #expect(keys.count == 3)
        var table = ItemIDTable<Int>()
        for (value, key) in keys.enumerated() { table[key] = value }
        table[keys[1]] = nil
        #expect(table[keys[0]] == 0)
        #expect(table[keys[2]] == 2)
        #expect(table.count == 2)
        table[keys[0]] = nil
        #expect(table[keys[2]] == 2)
        #expect(table[keys[0]] == nil && table[keys[1]] == nil)
        #expect(table.sortedKeys() == [keys[2]])
    }
}
