import Foundation

/// Resident memory of this process from `/proc/self/status` (Linux).
public enum ProcessMemory {
    /// Resets the peak resident size (`VmHWM`) to the current one (`/proc/self/clear_refs`,
    /// value 5, Linux 4.0+). Returns false when the kernel refuses.
    public static func resetPeak() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// The value of `field` (`VmHWM`, `VmRSS`) in bytes, or nil.
    public static func bytes(_ field: String) -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return Int64(digits).map { $0 * 1024 }
        }
        return nil
    }
}

/// Sizes of files on disk.
public enum DiskUsage {
    /// The summed size of the regular files in `path` (a file or a directory tree), in bytes.
    public static func bytes(at path: String) -> Int64 {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return 0 }
        guard isDirectory.boolValue else { return fileSize(path) }
        var total: Int64 = 0
        guard let enumerator = manager.enumerator(atPath: path) else { return 0 }
        for case let name as String in enumerator {
            total += fileSize(path + "/" + name)
        }
        return total
    }

    private static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int64(info.st_size)
    }
}
