import Foundation
import SystemPackage

/// A fresh directory under the system's temporary folder, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// Its path.
    public let path: FilePath

    /// Creates a uniquely named directory.
    public init(_ label: String = "tally") throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = FilePath(url.path)
    }

    /// A path inside it.
    public func appending(_ component: String) -> FilePath { path.appending(component) }

    /// Deletes it and everything inside.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path.string)
    }
}
