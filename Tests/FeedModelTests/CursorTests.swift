import FeedModel
import Testing

@Suite struct CursorTests {
    @Test func feedOrderPutsNewerFirstAndBreaksTiesByLargerId() {
        let a = Cursor(publishedAt: 2000, id: 1)
        let b = Cursor(publishedAt: 1000, id: 9)
        let c = Cursor(publishedAt: 1000, id: 3)
        #expect([c, b, a].sorted() == [a, b, c])
    }
}

@Suite struct SplitMix64Tests {
    @Test func firstOutputForSeedZeroMatchesReferenceImplementation() {
        // splitmix64.c (Vigna) with x = 0: first output 0xE220A8397B1DCDAF.
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test func unitValuesStayInHalfOpenRange() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<10_000 {
            let u = rng.nextUnit()
            #expect(u >= 0 && u < 1)
        }
    }
}
