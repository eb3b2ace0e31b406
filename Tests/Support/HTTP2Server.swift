import Foundation

/// `nghttpd` on a free loopback port serving `p1.json`, `p2.json`, … (JSON:API documents of
/// `pageSize` items, ids `items` down to 1, each with `links.next` to the following file) over TLS.
public final class HTTP2Server {
    public static func find(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/usr/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public static let nghttpd = find("nghttpd")
    public static let openssl = find("openssl")
    public static var available: Bool { nghttpd != nil && openssl != nil }
    public static let skipMessage = "nghttpd or openssl is not installed (Debian: apt-get install nghttp2-server openssl); .ci/run installs them"

    public let directory: URL
    public let certificate: String
    public let port: Int
    public let process: ChildProcess
    public var firstPage: String { "https://127.0.0.1:\(port)/p1.json" }

    public init(items: Int, pageSize: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-h2-\(UUID().uuidString)")
        let root = directory.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let made = try ChildProcess(
            Self.openssl!,
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        guard made.wait() == 0 else { throw POSIXError(.EIO) }
        port = try Self.freePort()
        let pages = (items + pageSize - 1) / pageSize
        for page in 1...pages {
            let ids = stride(from: items - (page - 1) * pageSize, to: max(0, items - page * pageSize), by: -1)
            let data = ids.map { id in
                #"{"id":"\#(id)","type":"photo","attributes":{"published_at":\#(1_700_000_000_000 + Int64(id) * 1000),"#
                    + #""width":\#(300 + id),"height":200,"title":"item \#(id)"}}"#
            }
            let next = page < pages ? #""https://127.0.0.1:\#(port)/p\#(page + 1).json""# : "null"
            let body = #"{"data":[\#(data.joined(separator: ","))],"links":{"next":\#(next)}}"#
            try body.write(to: root.appendingPathComponent("p\(page).json"), atomically: true, encoding: .utf8)
        }
        process = try ChildProcess(Self.nghttpd!, ["-d", root.path, String(port), key, certificate])
        guard Self.waitForListener(port: port) else { throw POSIXError(.ETIMEDOUT) }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A port the kernel hands out for loopback, closed again for the server to take.
    public static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public static func waitForListener(port: Int, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(socket)
            if connected { return true }
            usleep(50_000)
        }
        return false
    }
}
