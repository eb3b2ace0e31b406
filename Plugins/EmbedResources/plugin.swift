import Foundation
import PackagePlugin

/// Embeds every file under the package's `Schema/` and `Seeds/` (recursively, hidden files skipped)
/// into the target it is applied to, as generated Swift (`EmbeddedFiles.swift`), so the built binary
/// carries them and runs from any directory. The directories stay the source of truth: the build
/// reruns the generator whenever one of their files changes, or one is added or removed.
@main
struct EmbedResources: BuildToolPlugin {
    /// The package directories embedded, relative to the package root.
    static let roots = ["Schema", "Seeds"]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let package = context.package.directoryURL
        var relativePaths: [String] = []
        for root in Self.roots {
            relativePaths += try files(under: package.appending(path: root), relativeTo: package, prefix: root)
        }
        relativePaths.sort()
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(relativePaths.count) files of \(Self.roots.joined(separator: ", ")) in \(target.name)",
                executable: try context.tool(named: "EmbedResourcesTool").url,
                arguments: [output.path, package.path] + relativePaths,
                inputFiles: relativePaths.map { package.appending(path: $0) },
                outputFiles: [output])
        ]
    }

    /// Regular files below `directory`, as paths relative to the package (`Seeds/traces/x.jsonl`).
    private func files(under directory: URL, relativeTo package: URL, prefix: String) throws -> [String] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return []
        }
        var found: [String] = []
        for name in try manager.contentsOfDirectory(atPath: directory.path) where !name.hasPrefix(".") {
            let url = directory.appending(path: name)
            var childIsDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &childIsDirectory) else { continue }
            if childIsDirectory.boolValue {
                found += try files(under: url, relativeTo: package, prefix: prefix + "/" + name)
            } else {
                found.append(prefix + "/" + name)
            }
        }
        return found
    }
}
