import FeedModel
import Foundation
import Testing

@testable import FeedResources
import FeedStore

@Suite struct ItemGeneratorTests {
    /// A preset file written to a temporary directory, loaded (and validated) as `feedsim seed` would.
    private func preset(_ json: String) throws -> Preset {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("preset-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try Preset.load(from: url)
    }

    private static let grammarPreset = """
        { "name": "t", "items_per_hour": 60,
          "kinds": [ { "kind": "photo", "weight": 1, "width": 390, "aspect_ratios": [ { "value": 1.0, "weight": 1 } ] },
                     { "kind": "text", "weight": 1, "width": 390,
                       "height": { "median": 100, "sigma": 0, "min": 100, "max": 100 } } ],
          "authors": ["a", "b"],
          "title_grammar": { "templates": ["{Adjective} {noun} in {place}"],
                             "words": { "adjective": ["quiet", "golden"], "noun": ["harbor"], "place": ["Lisbon", "Oslo"] } } }
        """

    @Test func titlesFillEachSlotOfTheTemplateFromItsWords() throws {
        var generator = ItemGenerator(preset: try preset(Self.grammarPreset), seed: 3)
        let titles = generator.items(count: 400).map(\.title)
        // "{Adjective} {noun} in {place}": 2 × 1 × 2 titles, the adjective capitalized, nothing else.
        let allowed: Set = ["Quiet harbor in Lisbon", "Quiet harbor in Oslo", "Golden harbor in Lisbon", "Golden harbor in Oslo"]
        #expect(Set(titles) == allowed, "every combination occurs in 400 draws (each has p = 1/4)")
    }

    @Test func shippedPresetsTitlesComeFromTheirGrammars() throws {
        for name in ["mixed", "news", "photos"] {
            let preset = try Preset.named(name)
            let grammar = try #require(preset.titleGrammar, "\(name) has a title grammar")
            var generator = ItemGenerator(preset: preset, seed: 1)
            for item in generator.items(count: 300) where item.kind != preset.ad?.kind {
                // Each title is one template with every slot replaced by one of its words.
                let matches = grammar.templates.contains { template in
                    Self.matches(item.title, TitleTemplate(template)!.parts, grammar.words)
                }
                #expect(matches, "\(name): '\(item.title)'")
                #expect(item.title.first!.isUppercase, "\(name): '\(item.title)' starts with a capital")
            }
        }
    }

    /// Whether `title` is `parts` with each slot one of its words (brute force over the choices).
    private static func matches(_ title: Substring, _ parts: ArraySlice<TitleTemplate.Part>, _ words: [String: [String]]) -> Bool {
        guard let part = parts.first else { return title.isEmpty }
        switch part {
        case .literal(let text):
            return title.hasPrefix(text) && matches(title.dropFirst(text.count), parts.dropFirst(), words)
        case .slot(let name, let capitalized):
            return (words[name] ?? []).contains { word in
                let shown = capitalized ? word.prefix(1).uppercased() + word.dropFirst() : word
                return title.hasPrefix(shown) && matches(title.dropFirst(shown.count), parts.dropFirst(), words)
            }
        }
    }

    private static func matches(_ title: String, _ parts: [TitleTemplate.Part], _ words: [String: [String]]) -> Bool {
        matches(Substring(title), parts[...], words)
    }

    @Test func adGapsStayWithinTheJitterAndAverageThePresetsSpacing() throws {
        // news: ad every 8, jitter 2: gaps uniform on 6...10, mean 8, variance (5² − 1) / 12 = 2.
        let preset = try Preset.named("news")
        #expect(preset.ad?.every == 8 && preset.ad?.effectiveJitter == 2)
        var generator = ItemGenerator(preset: preset, seed: 3)
        let items = generator.items(count: 100_000)
        let positions = items.indices.filter { items[$0].kind == "ad" }.map { $0 + 1 }
        let gaps = zip([0] + positions, positions).map { $1 - $0 }
        #expect(gaps.allSatisfy { (6...10).contains($0) })
        // ≈ 12 500 gaps: the mean's standard error is √2 / √12 500 ≈ 0.013; ±0.06 is over 4 of them.
        let mean = Double(gaps.reduce(0, +)) / Double(gaps.count)
        #expect(abs(mean - 8) < 0.06, "mean gap \(mean)")
        // Each of the 5 gaps has p = 0.2: standard error √(0.2 · 0.8 / 12 500) ≈ 0.0036; ±0.02 is over 5.
        for gap in 6...10 {
            let share = Double(gaps.filter { $0 == gap }.count) / Double(gaps.count)
            #expect(abs(share - 0.2) < 0.02, "gap \(gap): \(share)")
        }
        // Not a metronome: consecutive gaps differ often (p = 0.8 each).
        #expect(zip(gaps, gaps.dropFirst()).filter { $0 != $1 }.count > gaps.count / 2)
    }

    @Test func jitterZeroPlacesAnAdOnExactlyEveryNthItem() throws {
        var json = Self.grammarPreset
        json.removeLast()
        var generator = ItemGenerator(
            preset: try preset(json + #", "ad": { "every": 5, "kind": "ad", "width": 390, "height": 250, "jitter": 0 } }"#),
            seed: 9)
        let items = generator.items(count: 50)
        #expect(items.indices.filter { items[$0].kind == "ad" }.map { $0 + 1 } == [5, 10, 15, 20, 25, 30, 35, 40, 45, 50])
    }

    struct Payload: Decodable {
        var seq: Int
        var image: String?
        var body_length: Int
        var likes: Int
        var comments: Int
    }

    @Test func payloadsParseAndTheirImageURLCarriesTheItemsSize() throws {
        let preset = try Preset.named("mixed")
        var generator = ItemGenerator(preset: preset, seed: 5)
        let items = generator.items(count: 20_000)
        var likes: [Int] = []
        for (index, item) in items.enumerated() {
            let payload = try JSONDecoder().decode(Payload.self, from: Data(item.payload.utf8))
            #expect(payload.seq == index + 1)
            #expect((0...4_000).contains(payload.body_length) && payload.likes >= 0 && payload.comments >= 0)
            // mixed: photos, videos, links and ads show an image; text items do not.
            if item.kind == "text" {
                #expect(payload.image == nil)
            } else {
                let image = try #require(payload.image, "\(item.kind) has an image")
                let parts = image.split(separator: "/")
                // https://img.example/{key}/{w}x{h}.jpg
                #expect(parts.count == 4 && parts[0] == "https:" && parts[1] == "img.example")
                #expect(parts[2].count == 16 && parts[2].allSatisfy(\.isHexDigit))
                #expect(parts[3] == "\(Int(item.width))x\(Int(item.height)).jpg", "\(image) for \(item.width)×\(item.height)")
            }
            if item.kind != "ad" { likes.append(payload.likes) }
        }
        // Likes are log-normal with median 12 (σ 1.5): the sample median of ≈ 18 000 draws is within
        // 1.2533 · 1.5 / √18 000 ≈ 1.4 % of it per standard error; ±10 % is 7 of them.
        likes.sort()
        let median = Double(likes[likes.count / 2])
        #expect(median >= 11 && median <= 13, "median likes \(median)")
        #expect(likes.last! > 500, "a heavy tail: e^(1.5 · 4) · 12 ≈ 4 800 is 4 σ")
    }

    /// The image URL is built from the pattern's pieces (parsed and JSON-escaped once, not by
    /// search-and-replace per item): every `{key}`, `{w}` and `{h}` replaced, however often it comes,
    /// anything else (a quote, a backslash, an unknown `{other}`, non-ASCII) kept and escaped as
    /// RFC 8259 §7 says. Expected text written out by hand for a 390 × 390 photo.
    @Test func imageURLPatternsReplaceEveryPlaceholderAndEscapeTheRestForJSON() throws {
        let preset = try preset(
            #"""
            { "name": "u", "items_per_hour": 60,
              "kinds": [ { "kind": "photo", "weight": 1, "width": 390, "aspect_ratios": [ { "value": 1.0, "weight": 1 } ] } ],
              "authors": ["a"], "title_words": ["alpha"], "title_length": { "min": 1, "max": 1 },
              "payload": { "image_url": "s://{key}/{w}x{h}/\"{w}\"\\{other}/{h}{key}é" } }
            """#)
        var generator = ItemGenerator(preset: preset, seed: 4)
        var keys = Set<String>()
        for item in generator.items(count: 50) {
            let json = item.payload
            let start = try #require(json.range(of: #","image":"s://"#)).upperBound
            let key = String(json[start...].prefix(16))
            #expect(key.count == 16 && key.allSatisfy { "0123456789abcdef".contains($0) }, "\(json)")
            keys.insert(key)
            let expected = #","image":"s://"# + key + #"/390x390/\"390\"\\{other}/390"# + key + #"é","#
            #expect(json.contains(expected), "\(json)")
            let payload = try JSONDecoder().decode(Payload.self, from: Data(json.utf8))
            #expect(payload.image == "s://\(key)/390x390/\"390\"\\{other}/390\(key)é")
        }
        #expect(keys.count == 50, "a fresh media key per item")
        #expect(ItemGenerator.hex16(0x0123_4567_89AB_CDEF) == "0123456789abcdef")
        #expect(ItemGenerator.hex16(0xF) == "000000000000000f" && ItemGenerator.hex16(.max) == "ffffffffffffffff")
    }

    @Test func theSameSeedGivesTheSameBytesAndAnotherSeedOthers() throws {
        let preset = try Preset.named("photos")
        var a = ItemGenerator(preset: preset, seed: 21)
        var b = ItemGenerator(preset: preset, seed: 21)
        var c = ItemGenerator(preset: preset, seed: 22)
        let (first, second, other) = (a.items(count: 500), b.items(count: 500), c.items(count: 500))
        #expect(first.map(\.payload) == second.map(\.payload) && first.map(\.title) == second.map(\.title))
        #expect(first.map(\.author) == second.map(\.author) && first.map(\.height) == second.map(\.height))
        #expect(first.map(\.payload) != other.map(\.payload) && first.map(\.title) != other.map(\.title))
    }

    @Test func presetsWithTitleWordsAndNoPayloadStillLoad() throws {
        // The old shape: title_words and title_length, an ad without jitter, no payload.
        let old = try preset(
            """
            { "name": "old", "items_per_hour": 60,
              "kinds": [ { "kind": "photo", "weight": 1, "width": 390, "aspect_ratios": [ { "value": 1.0, "weight": 1 } ] } ],
              "ad": { "every": 12, "kind": "ad", "width": 390, "height": 250 },
              "authors": ["a"], "title_words": ["alpha", "beta"], "title_length": { "min": 2, "max": 2 } }
            """)
        #expect(old.ad?.effectiveJitter == 3, "default jitter 12 / 4 = 3")
        var generator = ItemGenerator(preset: old, seed: 1)
        for item in generator.items(count: 100) where item.kind == "photo" {
            let words = item.title.lowercased().split(separator: " ")
            #expect(words.count == 2 && words.allSatisfy { ["alpha", "beta"].contains($0) })
            let payload = try JSONDecoder().decode(Payload.self, from: Data(item.payload.utf8))
            #expect(payload.image?.hasSuffix("/390x390.jpg") == true, "default image URL pattern")
        }
    }

    @Test(arguments: [
        (#""title_grammar": { "templates": ["{Adjective} {noun}"], "words": { "adjective": ["a"] } }"#,
         "field 'title_grammar.templates[0]': slot '{noun}' has no words"),
        (#""title_grammar": { "templates": ["{open"], "words": {} }"#, "field 'title_grammar.templates[0]': a '{' without"),
        (#""title_grammar": { "templates": [], "words": {} }"#, "field 'title_grammar.templates': needs at least one"),
        (#""title_words": ["a"], "title_length": { "min": 1, "max": 1 }, "ad": { "every": 4, "kind": "ad", "width": 1, "height": 1, "jitter": 3 }"#,
         "field 'ad.jitter': must be 0 ... every − 2 (2)"),
        (#""title_words": ["a"], "title_length": { "min": 1, "max": 1 }, "payload": { "likes": { "median": 0, "sigma": 1, "min": 0, "max": 9 } }"#,
         "field 'payload.likes.median': must be > 0"),
        (#""authors2": 1"#, "field 'title_grammar': needs a title grammar"),
    ])
    func badGrammarsAndPayloadsNameTheirField(fields: String, message: String) throws {
        let json = """
            { "name": "bad", "items_per_hour": 60, "authors": ["a"],
              "kinds": [ { "kind": "photo", "weight": 1, "width": 390, "aspect_ratios": [ { "value": 1.0, "weight": 1 } ] } ],
              \(fields) }
            """
        #expect {
            _ = try preset(json)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
