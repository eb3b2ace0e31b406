import FeedModel
import Foundation

/// Generates items from a ``Preset``, deterministically: the same preset, seed and start time give
/// the same items, in the same order, on every machine.
///
/// Items are generated **forward in time**: the first one is published at the start time plus
/// one exponential gap, each next one later, so the last generated item is the newest, at the
/// top of the feed. Arrivals are a Poisson process with rate `items_per_hour`: gaps are
/// exponential, `-ln(1 - u) · 3 600 000 / rate` milliseconds (inverse-transform sampling).
/// Several items can share a millisecond; the store breaks ties by id.
///
/// Ads: the first ad comes after a gap drawn uniformly from `every − jitter ... every + jitter`
/// items, each next one after another such gap (``Preset/AdSpec``).
///
/// Text: titles from the preset's ``Preset/TitleGrammar`` (or, for older presets, words from
/// `title_words`); the author drawn uniformly; the payload a JSON object with sorted keys:
///
/// ```json
/// {"body_length":311,"comments":4,"image":"https://img.example/3f2a…/390x488.jpg","likes":17,"seq":1}
/// ```
///
/// (`image` only for kinds that show one; see ``Preset/PayloadSpec``). Sizes and arrival times,
/// ad slots and text each draw from their own stream of the seed, so a preset's sizes do not
/// change when its vocabulary does.
///
/// The replay harness inserts "n new items at the head at time t" with
/// ``items(count:notBefore:)``.
public struct ItemGenerator: Sendable {
    public let preset: Preset
    /// Arrival gaps, kinds and sizes.
    private var random: SplitMix64
    /// Ad gaps.
    private var adRandom: SplitMix64
    /// Titles, authors and payloads.
    private var textRandom: SplitMix64
    /// The `generated` count at which the next ad comes.
    private var nextAd: Int
    private let templates: [ResolvedTemplate]
    private let payload: ResolvedPayload
    /// Whether each kind's payload has an `image`, by index into `preset.kinds`; and the ad's.
    private let kindShowsImage: [Bool]
    private let adShowsImage: Bool
    /// `title_words` (older presets) and the same words with their first letter upper-cased.
    private let titleWords: [String]
    private let capitalizedTitleWords: [String]
    /// The arrival clock, Unix milliseconds (fractional; `published_at` is its floor).
    private var clock: Double
    /// Items generated so far.
    public private(set) var generated: Int = 0
    private let kindWeights: [Double]
    private let ratioWeights: [[Double]]

    /// Default start time: 2026-01-01T00:00:00Z = 1 767 225 600 000 ms (fixed, so default runs repeat).
    public static let defaultStart: Int64 = 1_767_225_600_000

    /// - Parameters:
    ///   - start: Unix milliseconds; every item is published after it.
    public init(preset: Preset, seed: UInt64, start: Int64 = ItemGenerator.defaultStart) {
        self.preset = preset
        self.random = SplitMix64(seed: seed)
        // Independent streams: each seeded with an output of a SplitMix64 over the seed and a
        // per-stream constant, so no stream is another's shifted by a few draws.
        var streams = SplitMix64(seed: seed ^ 0x7465_7874_6164_7331)
        self.adRandom = SplitMix64(seed: streams.next())
        self.textRandom = SplitMix64(seed: streams.next())
        self.clock = Double(start)
        self.kindWeights = preset.kinds.map(\.weight)
        self.ratioWeights = preset.kinds.map { $0.aspectRatios?.map(\.weight) ?? [] }
        let words = preset.titleGrammar?.words ?? [:]
        self.templates = (preset.titleGrammar?.templates.compactMap(TitleTemplate.init) ?? []).map {
            ResolvedTemplate($0, words: words)
        }
        let payload = ResolvedPayload(preset)
        self.payload = payload
        self.kindShowsImage = preset.kinds.map { payload.imageKinds.contains($0.kind) }
        self.adShowsImage = preset.ad.map { payload.imageKinds.contains($0.kind) } ?? false
        self.titleWords = preset.titleWords ?? ["item"]
        self.capitalizedTitleWords = titleWords.map(Self.capitalized)
        self.nextAd = 0
        self.nextAd = adGap()
    }

    /// Items from one ad to the next, uniform in `every − jitter ... every + jitter`; `Int.max` without ads.
    private mutating func adGap() -> Int {
        guard let ad = preset.ad else { return Int.max }
        let jitter = ad.effectiveJitter
        return ad.every - jitter + Int(adRandom.next() % UInt64(2 * jitter + 1))
    }

    /// The publication time of the last generated item (or the start), Unix milliseconds.
    public var lastPublishedAt: Int64 { Self.milliseconds(clock) }

    /// The clock's whole milliseconds, saturating at `Int64.max` (a store may hold items that
    /// late; the head after them stays there, ties broken by id).
    static func milliseconds(_ clock: Double) -> Int64 {
        clock >= 9.223_372_036_854_775e18 ? Int64.max : Int64(clock.rounded(.down))
    }

    /// The next item, published one exponential gap after the previous one.
    public mutating func next() -> NewItem {
        let gap = -log(1 - random.nextUnit()) * 3_600_000 / preset.itemsPerHour
        clock += gap
        generated += 1
        let publishedAt = Self.milliseconds(clock)
        if let ad = preset.ad, generated == nextAd {
            nextAd += adGap()
            return NewItem(
                publishedAt: publishedAt, kind: ad.kind, width: ad.width, height: ad.height,
                title: "Sponsored", author: "Sponsor",
                payload: payloadJSON(showsImage: adShowsImage, width: ad.width, height: ad.height))
        }
        let kindIndex = pick(kindWeights)
        let spec = preset.kinds[kindIndex]
        let height: Double
        if let ratios = spec.aspectRatios {
            height = (spec.width / ratios[pick(ratioWeights[kindIndex])].value).rounded()
        } else if let distribution = spec.height {
            height = Swift.min(
                distribution.max,
                Swift.max(distribution.min, (distribution.median * exp(distribution.sigma * normal())).rounded()))
        } else {
            preconditionFailure("validated preset has aspect ratios or a height distribution")
        }
        return NewItem(
            publishedAt: publishedAt, kind: spec.kind, width: spec.width, height: height, title: title(),
            author: preset.authors[Int(textRandom.next() % UInt64(preset.authors.count))],
            payload: payloadJSON(showsImage: kindShowsImage[kindIndex], width: spec.width, height: height))
    }

    /// A new title and payload for an existing item of `kind` and size (an edit: a load writer's
    /// update), from the text stream; the payload's `seq` is the count of items generated so far.
    public mutating func edit(kind: String, width: Double, height: Double) -> (title: String, payload: String) {
        (title(), payloadJSON(showsImage: payload.imageKinds.contains(kind), width: width, height: height))
    }

    /// `count` new items, all published at or after `time` (Unix ms) when given: the clock first
    /// jumps forward to `time` if it is behind.
    public mutating func items(count: Int, notBefore time: Int64? = nil) -> [NewItem] {
        if let time { clock = Swift.max(clock, Double(time)) }
        return (0..<count).map { _ in next() }
    }

    /// An index drawn with probability proportional to its weight.
    private mutating func pick(_ weights: [Double]) -> Int {
        var target = random.nextUnit() * weights.reduce(0, +)
        for (index, weight) in weights.enumerated() {
            target -= weight
            if target < 0 { return index }
        }
        return weights.count - 1
    }

    /// A standard normal draw (Box–Muller transform, one of the pair).
    private mutating func normal() -> Double {
        Self.normal(&random)
    }

    private static func normal(_ random: inout SplitMix64) -> Double {
        let u1 = 1 - random.nextUnit()  // (0, 1]: log is finite
        let u2 = random.nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A draw of `counts`: `round(median · e^(sigma · z))`, clamped.
    private mutating func count(_ counts: Preset.CountDistribution) -> Int {
        let value = (counts.median * exp(counts.sigma * Self.normal(&textRandom))).rounded()
        guard value.isFinite, value < Double(counts.max) else { return counts.max }
        return Swift.max(counts.min, Int(value))
    }

    /// The payload JSON of an item (keys sorted; see the type's discussion). The image URL is the
    /// preset's `image_url` with `{key}`, `{w}` and `{h}` replaced, JSON-escaped; built from the
    /// pattern's pieces, parsed and escaped once (``ResolvedPayload/imageParts``).
    private mutating func payloadJSON(showsImage: Bool, width: Double, height: Double) -> String {
        let key = textRandom.next()
        let bodyLength = count(payload.bodyLength)
        let comments = count(payload.comments)
        let likes = count(payload.likes)
        var json = "{\"body_length\":"
        json.reserveCapacity(160)
        json += String(bodyLength)
        json += ",\"comments\":"
        json += String(comments)
        if showsImage {
            json += ",\"image\":\""
            for part in payload.imageParts {
                switch part {
                case .literal(let escaped): json += escaped
                case .key: json += Self.hex16(key)
                case .width: json += String(Int(width.rounded()))
                case .height: json += String(Int(height.rounded()))
                }
            }
            json += "\""
        }
        json += ",\"likes\":"
        json += String(likes)
        json += ",\"seq\":"
        json += String(generated)
        json += "}"
        return json
    }

    /// `value` as 16 lower-case hex digits, zero-padded (what `String(value, radix: 16)` padded gives).
    static func hex16(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { bytes in
            for index in 0..<16 {
                let digit = UInt8((value >> UInt64(60 - 4 * index)) & 0xF)
                bytes[index] = digit < 10 ? 48 + digit : 87 + digit  // "0"… "9", "a"… "f"
            }
            return 16
        }
    }

    /// `word` with its first character upper-cased (the rest as it is).
    static func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    /// `text` as a JSON string literal (RFC 8259 §7: quote, backslash and control characters escaped).
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private mutating func title() -> String {
        if !templates.isEmpty, preset.titleGrammar != nil {
            var text = ""
            for part in templates[Int(textRandom.next() % UInt64(templates.count))].parts {
                switch part {
                case .literal(let literal):
                    text += literal
                case .slot(let choices, let capitalized):
                    let index = Int(textRandom.next() % UInt64(choices.count))
                    text += capitalized?[index] ?? choices[index]
                }
            }
            return text
        }
        let range = preset.titleLength ?? Preset.CountRange(min: 1, max: 1)
        let count = range.min + Int(textRandom.next() % UInt64(range.max - range.min + 1))
        var text = ""
        for index in 0..<count {
            let pick = Int(textRandom.next() % UInt64(titleWords.count))
            if index == 0 {
                text += capitalizedTitleWords[pick]
            } else {
                text += " "
                text += titleWords[pick]
            }
        }
        return text
    }
}

/// A ``TitleTemplate`` with its slots' words looked up once (a slot without words is its own name),
/// and the capitalized forms made once for slots written with an upper-case first letter.
struct ResolvedTemplate: Sendable {
    enum Part: Sendable {
        case literal(String)
        /// The slot's words, and their capitalized forms when the slot is capitalized.
        case slot([String], capitalized: [String]?)
    }

    let parts: [Part]

    init(_ template: TitleTemplate, words: [String: [String]]) {
        parts = template.parts.map { part in
            switch part {
            case .literal(let literal): return .literal(literal)
            case .slot(let name, let capitalized):
                let choices = words[name] ?? [name]
                return .slot(choices, capitalized: capitalized ? choices.map(ItemGenerator.capitalized) : nil)
            }
        }
    }
}

/// A preset's ``Preset/PayloadSpec`` with ``Preset/defaultPayload`` filling what it leaves out.
struct ResolvedPayload: Sendable {
    /// A piece of `image_url`: text (already JSON-escaped, RFC 8259 §7) or a placeholder.
    enum ImagePart: Hashable, Sendable {
        case literal(String)
        case key, width, height
    }

    let imageURL: String
    /// `imageURL` cut at `{key}`, `{w}` and `{h}` (none of which can overlap another, nor appear in
    /// what replaces one: hex digits and decimal digits), literals escaped for a JSON string.
    let imageParts: [ImagePart]
    let imageKinds: Set<String>
    let bodyLength: Preset.CountDistribution
    let likes: Preset.CountDistribution
    let comments: Preset.CountDistribution

    init(_ preset: Preset) {
        let spec = preset.payload ?? Preset.PayloadSpec()
        let defaults = Preset.defaultPayload
        imageURL = spec.imageURL ?? defaults.imageURL!
        imageParts = Self.parts(of: imageURL)
        imageKinds = Set(
            spec.imageKinds
                ?? (preset.kinds.filter { $0.aspectRatios != nil }.map(\.kind) + (preset.ad.map { [$0.kind] } ?? [])))
        bodyLength = spec.bodyLength ?? defaults.bodyLength!
        likes = spec.likes ?? defaults.likes!
        comments = spec.comments ?? defaults.comments!
    }

    /// Cuts `pattern` at every `{key}`, `{w}` and `{h}`, left to right.
    static func parts(of pattern: String) -> [ImagePart] {
        let placeholders: [(String, ImagePart)] = [("{key}", .key), ("{w}", .width), ("{h}", .height)]
        var parts: [ImagePart] = []
        var literal = ""
        var rest = Substring(pattern)
        while !rest.isEmpty {
            if let (token, part) = placeholders.first(where: { rest.hasPrefix($0.0) }) {
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(part)
                rest = rest.dropFirst(token.count)
            } else {
                literal.append(rest.removeFirst())
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts.map { part in
            guard case .literal(let text) = part else { return part }
            return .literal(String(ItemGenerator.jsonString(text).dropFirst().dropLast()))
        }
    }
}
