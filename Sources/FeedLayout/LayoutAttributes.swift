/// Section and item, as `IndexPath` for collection views. FeedSim feeds have one section.
public struct IndexPath: Hashable, Sendable, Codable, Comparable {
    public var section: Int
    public var item: Int
    public init(section: Int = 0, item: Int) {
        self.section = section
        self.item = item
    }
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }
}

/// The kind of a supplementary view.
public enum SupplementaryKind: String, CaseIterable, Hashable, Sendable, Codable {
    /// The pull-to-refresh view above the content (`UIRefreshControl`'s place).
    case refresh
    /// The section header, at the content's start.
    case header
    /// The section footer at the content's end: the load-more view of a feed.
    case footer

    /// The element kind string, as `UICollectionView.elementKindSectionHeader` and
    /// `elementKindSectionFooter` spell it (their values are `UICollectionElementKindSectionHeader`
    /// and `UICollectionElementKindSectionFooter`); the refresh view, which UIKit draws with a
    /// `UIRefreshControl` rather than a supplementary view, is `FeedSimElementKindRefresh`.
    public var elementKind: String {
        switch self {
        case .refresh: return "FeedSimElementKindRefresh"
        case .header: return "UICollectionElementKindSectionHeader"
        case .footer: return "UICollectionElementKindSectionFooter"
        }
    }
}

/// What an element is, as `UICollectionView.ElementCategory`.
public enum ElementCategory: Hashable, Sendable, Codable {
    case cell
    case supplementary(SupplementaryKind)
    case decoration(String)

    /// Text form for reports: `cell`, `refresh`, `header`, `footer`, `decoration:<kind>`.
    public var name: String {
        switch self {
        case .cell: return "cell"
        case .supplementary(let kind): return kind.rawValue
        case .decoration(let kind): return "decoration:\(kind)"
        }
    }

    /// `UICollectionView.ElementCategory`'s case name: `cell`, `supplementary` or `decoration`.
    public var categoryName: String {
        switch self {
        case .cell: return "cell"
        case .supplementary: return "supplementary"
        case .decoration: return "decoration"
        }
    }

    /// The element kind of a supplementary or decoration view (``SupplementaryKind/elementKind``),
    /// `nil` for a cell.
    public var elementKind: String? {
        switch self {
        case .cell: return nil
        case .supplementary(let kind): return kind.elementKind
        case .decoration(let kind): return kind
        }
    }
}

/// Layout attributes of one element, as `UICollectionViewLayoutAttributes`.
public struct LayoutAttributes: Hashable, Sendable {
    public var indexPath: IndexPath
    public var category: ElementCategory
    /// Frame in content coordinates, points.
    public var frame: Rect
    public var transform: Transform
    /// 0...1.
    public var alpha: Double
    public var zIndex: Int
    public var isHidden: Bool

    public init(
        indexPath: IndexPath, category: ElementCategory = .cell, frame: Rect,
        transform: Transform = .identity, alpha: Double = 1, zIndex: Int = 0, isHidden: Bool = false
    ) {
        self.indexPath = indexPath
        self.category = category
        self.frame = frame
        self.transform = transform
        self.alpha = alpha
        self.zIndex = zIndex
        self.isHidden = isHidden
    }

    /// Center of `frame`, points.
    public var center: Point { frame.center }
    /// Size of `frame`, points.
    public var size: Size { frame.size }
}
