import FeedModel
import Foundation

/// A dataset preset (`Seeds/<name>.json`): what kinds of items a feed holds, their sizes, how
/// fast they are published, who writes them and which words their titles use.
///
/// ```json
/// { "name": "photos", "items_per_hour": 240,
///   "kinds": [ { "kind": "photo", "weight": 9, "width": 1080,
///                "aspect_ratios": [ { "value": 1.0, "weight": 4 }, { "value": 0.8, "weight": 3 } ] },
///              { "kind": "text", "weight": 1, "width": 390,
///                "height": { "median": 120, "sigma": 0.4, "min": 60, "max": 400 } } ],
///   "ad": { "every": 8, "kind": "ad", "width": 390, "height": 250 },
///   "authors": ["..."], "title_words": ["..."], "title_length": { "min": 2, "max": 8 } }
/// ```
public struct Preset: Hashable, Sendable, Codable {
    /// A value with a relative weight (an aspect ratio and how often it occurs).
    public struct Weighted: Hashable, Sendable, Codable {
        public var value: Double
        public var weight: Double
    }

    /// Heights drawn from a log-normal distribution, clamped: `median · e^(sigma · z)`, z ~ N(0, 1).
    public struct HeightDistribution: Hashable, Sendable, Codable {
        /// Points.
        public var median: Double
        public var sigma: Double
        /// Points.
        public var min: Double
        /// Points.
        public var max: Double
    }

    /// One kind (reuse identifier) and its size distribution: exactly one of `aspectRatios`
    /// (height = width / ratio, ratio = width ÷ height) or `height`.
    public struct KindSpec: Hashable, Sendable, Codable {
        public var kind: String
        public var weight: Double
        /// Intrinsic width in points.
        public var width: Double
        public var aspectRatios: [Weighted]?
        public var height: HeightDistribution?

        enum CodingKeys: String, CodingKey {
            case kind, weight, width, height
            case aspectRatios = "aspect_ratios"
        }
    }

    /// Ad slots: on average every `every`-th generated item is an ad of this kind and fixed size.
    /// The gap from one ad to the next (and from the start to the first) is drawn uniformly from
    /// `every − jitter ... every + jitter` items, so the mean spacing is `every` and no two ads are
    /// closer than `every − jitter` (a feed does not place ads on a metronome).
    public struct AdSpec: Hashable, Sendable, Codable {
        public var every: Int
        public var kind: String
        /// Points.
        public var width: Double
        /// Points.
        public var height: Double
        /// Items either side of `every`; `nil`: `every / 4` (12 → gaps of 9 ... 15). 0 places an ad
        /// on exactly every `every`-th item.
        public var jitter: Int?

        /// The jitter in force.
        public var effectiveJitter: Int { jitter ?? every / 4 }
    }

    /// Titles from a small grammar: a template is drawn uniformly, and each `{slot}` in it is
    /// replaced by a word drawn uniformly from `words[slot]`; a slot written `{Slot}` (first letter
    /// upper case) takes the word with its first letter upper-cased. Example: the template
    /// `"{Adjective} {noun} in {place}"` with `words` `adjective: [quiet]`, `noun: [harbor]`,
    /// `place: [Lisbon]` gives `"Quiet harbor in Lisbon"`.
    public struct TitleGrammar: Hashable, Sendable, Codable {
        public var templates: [String]
        /// Slot name (lower case) → words.
        public var words: [String: [String]]
    }

    /// A count drawn from a log-normal distribution, rounded and clamped:
    /// `round(median · e^(sigma · z))`, z ~ N(0, 1), within `min ... max`. Heavy-tailed, as like
    /// and comment counts and body lengths are; the median of the draws is `median`.
    public struct CountDistribution: Hashable, Sendable, Codable {
        public var median: Double
        public var sigma: Double
        public var min: Int
        public var max: Int
    }

    /// What each item's `payload` JSON carries (see ``ItemGenerator``): an image URL for kinds
    /// that show an image, built from `image_url` with `{key}` (the item's media key: 16 hex
    /// digits from the seed; the row id is not known until the store assigns it), `{w}` and `{h}`
    /// (the item's intrinsic size in whole points); a body length in characters; like and comment
    /// counts. Every field is optional; ``defaultPayload`` fills the rest.
    public struct PayloadSpec: Hashable, Sendable, Codable {
        public var imageURL: String?
        /// Kinds whose payload has an image; `nil`: the kinds sized by aspect ratio, and the ad kind.
        public var imageKinds: [String]?
        /// Characters.
        public var bodyLength: CountDistribution?
        public var likes: CountDistribution?
        public var comments: CountDistribution?

        public init(
            imageURL: String? = nil, imageKinds: [String]? = nil, bodyLength: CountDistribution? = nil,
            likes: CountDistribution? = nil, comments: CountDistribution? = nil
        ) {
            self.imageURL = imageURL
            self.imageKinds = imageKinds
            self.bodyLength = bodyLength
            self.likes = likes
            self.comments = comments
        }

        enum CodingKeys: String, CodingKey {
            case likes, comments
            case imageURL = "image_url"
            case imageKinds = "image_kinds"
            case bodyLength = "body_length"
        }
    }

    /// Payload fields a preset does not give: `https://img.example/{key}/{w}x{h}.jpg`; body length
    /// median 240 characters (σ 0.8, 0 ... 4 000); likes median 12 (σ 1.5, 0 ... 1 000 000); comments
    /// median 2 (σ 1.2, 0 ... 100 000).
    public static let defaultPayload = PayloadSpec(
        imageURL: "https://img.example/{key}/{w}x{h}.jpg",
        bodyLength: CountDistribution(median: 240, sigma: 0.8, min: 0, max: 4_000),
        likes: CountDistribution(median: 12, sigma: 1.5, min: 0, max: 1_000_000),
        comments: CountDistribution(median: 2, sigma: 1.2, min: 0, max: 100_000))

    /// Inclusive bounds of a count (words per title).
    public struct CountRange: Hashable, Sendable, Codable {
        public var min: Int
        public var max: Int
    }

    public var name: String
    /// Mean publishing rate; arrivals are a Poisson process (exponential gaps).
    public var itemsPerHour: Double
    public var kinds: [KindSpec]
    public var ad: AdSpec?
    public var authors: [String]
    /// Titles from a grammar (preferred); without one, `title_words` drawn at random.
    public var titleGrammar: TitleGrammar?
    /// Older presets' titles: `title_length` words drawn from `title_words` (word salad).
    public var titleWords: [String]?
    public var titleLength: CountRange?
    public var payload: PayloadSpec?

    enum CodingKeys: String, CodingKey {
        case name, kinds, ad, authors, payload
        case itemsPerHour = "items_per_hour"
        case titleGrammar = "title_grammar"
        case titleWords = "title_words"
        case titleLength = "title_length"
    }
}

/// A preset file that cannot be used: names the file and the field.
public struct PresetError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var field: String
    public var reason: String
    public init(file: String, field: String, reason: String) {
        self.file = file
        self.field = field
        self.reason = reason
    }
    public var description: String {
        field.isEmpty ? "\(file): \(reason)" : "\(file): field '\(field)': \(reason)"
    }
}

extension Preset {
    /// The names of the presets in `Seeds/` (file names without `.json`), sorted.
    /// - Parameter directory: a seeds directory on disk; `nil`: ``ResourceDirectory/seeds``.
    /// - Throws: ``FileError`` when the directory cannot be listed.
    public static func availableNames(in directory: URL? = nil) throws -> [String] {
        try availableNames(in: directory.map(ResourceDirectory.directory) ?? .seeds)
    }

    /// The names of the presets in `seeds` (file names without `.json`), sorted.
    /// - Throws: ``FileError`` when the directory cannot be listed.
    public static func availableNames(in seeds: ResourceDirectory) throws -> [String] {
        try seeds.fileNames().filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
    }

    /// Loads `Seeds/<name>.json`.
    /// - Parameter directory: a seeds directory on disk; `nil`: ``ResourceDirectory/seeds``.
    /// - Throws: ``PresetError`` for an unknown name (listing the known ones) or a bad file.
    public static func named(_ name: String, in directory: URL? = nil) throws -> Preset {
        try named(name, in: directory.map(ResourceDirectory.directory) ?? .seeds)
    }

    /// Loads `<name>.json` of `seeds`.
    /// - Throws: ``PresetError`` for an unknown name (listing the known ones) or a bad file,
    ///   ``FileError`` when the directory cannot be listed.
    public static func named(_ name: String, in seeds: ResourceDirectory) throws -> Preset {
        let known = try availableNames(in: seeds)
        let file = "\(name).json"
        guard known.contains(name) else {
            throw PresetError(
                file: seeds.path(file), field: "",
                reason: "unknown preset '\(name)' (known: \(known.joined(separator: ", ")))")
        }
        let data: Data
        do {
            data = try seeds.data(file)
        } catch {
            throw PresetError(file: seeds.path(file), field: "", reason: "cannot read file")
        }
        return try decode(data, file: seeds.path(file))
    }

    /// Loads and validates a preset file.
    /// - Throws: ``PresetError`` naming the file and the field that is missing, mistyped or out of range.
    public static func load(from url: URL) throws -> Preset {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PresetError(file: url.path, field: "", reason: "cannot read file")
        }
        return try decode(data, file: url.path)
    }

    /// Decodes and validates a preset's JSON (named `file` in errors).
    /// - Throws: ``PresetError`` naming the file and the field that is missing, mistyped or out of range.
    public static func decode(_ data: Data, file: String) throws -> Preset {
        let preset: Preset
        do {
            preset = try JSONDecoder().decode(Preset.self, from: data)
        } catch {
            // Malformed JSON: where, as the trace readers say it (JSONDecoder's own error has no position).
            let bytes = [UInt8](data)
            if let (position, reason) = JSONSyntaxCheck.firstProblemPosition(in: bytes) {
                throw PresetError(file: "\(file):\(position.line):\(position.column)", field: "", reason: "not JSON: \(reason)")
            }
            if let error = error as? DecodingError { throw PresetError(decoding: error, file: file) }
            throw PresetError(file: file, field: "", reason: "not JSON")
        }
        try preset.validate(file: file)
        return preset
    }

    /// Checks every number and list; see ``PresetError``.
    public func validate(file: String) throws {
        func fail(_ field: String, _ reason: String) -> PresetError {
            PresetError(file: file, field: field, reason: reason)
        }
        guard itemsPerHour.isFinite, itemsPerHour > 0 else { throw fail("items_per_hour", "must be > 0") }
        guard !kinds.isEmpty else { throw fail("kinds", "needs at least one kind") }
        for (index, spec) in kinds.enumerated() {
            let at = "kinds[\(index)]"
            guard !spec.kind.isEmpty, spec.kind.unicodeScalars.count <= NewItem.kindMaxLength else {
                throw fail("\(at).kind", "must be 1 to \(NewItem.kindMaxLength) characters")
            }
            guard spec.weight.isFinite, spec.weight > 0 else { throw fail("\(at).weight", "must be > 0") }
            guard spec.width.isFinite, NewItem.sizeRange.contains(spec.width) else {
                throw fail("\(at).width", "must be > 0 and at most \(Int(NewItem.sizeRange.upperBound)) points")
            }
            switch (spec.aspectRatios, spec.height) {
            case (let ratios?, nil):
                guard !ratios.isEmpty else { throw fail("\(at).aspect_ratios", "must not be empty") }
                for (r, ratio) in ratios.enumerated() {
                    guard ratio.value.isFinite, ratio.value > 0 else {
                        throw fail("\(at).aspect_ratios[\(r)].value", "must be > 0 (width ÷ height)")
                    }
                    guard ratio.weight.isFinite, ratio.weight > 0 else {
                        throw fail("\(at).aspect_ratios[\(r)].weight", "must be > 0")
                    }
                }
            case (nil, let height?):
                guard height.median > 0, height.median.isFinite else {
                    throw fail("\(at).height.median", "must be > 0")
                }
                guard height.sigma >= 0, height.sigma.isFinite else { throw fail("\(at).height.sigma", "must be ≥ 0") }
                guard height.min > 0, height.min <= height.max, height.max.isFinite else {
                    throw fail("\(at).height", "needs 0 < min ≤ max")
                }
            case (nil, nil), (_?, _?):
                throw fail(at, "give exactly one of 'aspect_ratios' or 'height'")
            }
        }
        if let ad {
            guard ad.every >= 2 else { throw fail("ad.every", "must be ≥ 2") }
            if let jitter = ad.jitter {
                guard jitter >= 0, jitter <= ad.every - 2 else {
                    throw fail("ad.jitter", "must be 0 ... every − 2 (\(ad.every - 2)), so ads are never adjacent")
                }
            }
            guard !ad.kind.isEmpty, ad.kind.unicodeScalars.count <= NewItem.kindMaxLength else {
                throw fail("ad.kind", "must be 1 to \(NewItem.kindMaxLength) characters")
            }
            guard NewItem.sizeRange.contains(ad.width), NewItem.sizeRange.contains(ad.height) else {
                throw fail("ad", "width and height must be > 0 and at most \(Int(NewItem.sizeRange.upperBound)) points")
            }
        }
        guard !authors.isEmpty else { throw fail("authors", "needs at least one author") }
        if let grammar = titleGrammar {
            guard !grammar.templates.isEmpty else { throw fail("title_grammar.templates", "needs at least one template") }
            for (index, template) in grammar.templates.enumerated() {
                let at = "title_grammar.templates[\(index)]"
                guard let parts = TitleTemplate(template) else {
                    throw fail(at, "a '{' without its '}' (slots are written {name})")
                }
                for slot in parts.slots {
                    guard let words = grammar.words[slot], !words.isEmpty else {
                        throw fail(at, "slot '{\(slot)}' has no words in title_grammar.words.\(slot)")
                    }
                }
            }
        } else {
            guard let titleWords, !titleWords.isEmpty else {
                throw fail("title_grammar", "needs a title grammar (or title_words with title_length)")
            }
            guard let titleLength, titleLength.min >= 1, titleLength.min <= titleLength.max else {
                throw fail("title_length", "needs 1 ≤ min ≤ max")
            }
        }
        if let payload {
            if let url = payload.imageURL, url.isEmpty { throw fail("payload.image_url", "must not be empty") }
            for (name, counts) in [("body_length", payload.bodyLength), ("likes", payload.likes), ("comments", payload.comments)] {
                guard let counts else { continue }
                guard counts.median > 0, counts.median.isFinite else { throw fail("payload.\(name).median", "must be > 0") }
                guard counts.sigma >= 0, counts.sigma.isFinite else { throw fail("payload.\(name).sigma", "must be ≥ 0") }
                guard counts.min >= 0, counts.min <= counts.max else {
                    throw fail("payload.\(name)", "needs 0 ≤ min ≤ max")
                }
            }
        }
    }
}

extension PresetError {
    /// Turns a `DecodingError` into a message with a dotted field path (`kinds[1].height.median`).
    init(decoding error: DecodingError, file: String) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(file: file, field: path(context.codingPath + [key]), reason: "missing")
        case .typeMismatch(let type, let context):
            self.init(file: file, field: path(context.codingPath), reason: "expected \(type)")
        case .valueNotFound(let type, let context):
            self.init(file: file, field: path(context.codingPath), reason: "expected \(type), found null")
        case .dataCorrupted(let context):
            self.init(file: file, field: path(context.codingPath), reason: "unusable value (\(context.debugDescription))")
        @unknown default:
            self.init(file: file, field: "", reason: "cannot decode")
        }
    }
}
