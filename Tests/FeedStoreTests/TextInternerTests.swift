import FeedModel
import Testing

@testable import FeedStore

@Suite struct TextInternerTests {
    @Test func everyTextDecodesAsStringDecodingDoesWhetherKeptOrNot() {
        // Random short byte strings over a small alphabet (so texts repeat), with invalid UTF-8
        // (0xFF, a lone continuation byte) and empty ones; more distinct texts than the capacity.
        var random = SplitMix64(seed: 17)
        let alphabet: [UInt8] = [0x61, 0x62, 0x63, 0x00, 0xFF, 0x80, 0xC3, 0xA9]
        var interner = TextInterner()
        for _ in 0..<5_000 {
            let length = Int(random.next() % 5) + (random.next() % 20 == 0 ? 40 : 0)
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let expected = String(decoding: bytes, as: UTF8.self)
            let got = bytes.withUnsafeBufferPointer { interner.string($0) }
            #expect(got == expected)
            #expect(Array(got.utf8) == Array(expected.utf8))
        }
    }

    @Test func aRepeatedKindIsTheSameStringAndAnEmptyTextIsEmpty() {
        var interner = TextInterner()
        let photo = Array("photo".utf8)
        let first = photo.withUnsafeBufferPointer { interner.string($0) }
        let again = photo.withUnsafeBufferPointer { interner.string($0) }
        #expect(first == "photo" && again == "photo")
        #expect(interner.string(UnsafeBufferPointer(start: nil, count: 0)) == "")
        #expect([UInt8]().withUnsafeBufferPointer { interner.string($0) } == "")
        #expect(Array("pho".utf8).withUnsafeBufferPointer { interner.string($0) } == "pho")
    }
}
