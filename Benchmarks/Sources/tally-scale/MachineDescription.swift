import Foundation

/// The machine line of a report: cores, RAM, Swift version, date, disk, load.
struct MachineDescription {
    let line: String

    /// Describes this machine; `directory` is where the ledgers live (its mount is the disk).
    static func current(directory: String, loadBefore: String) -> MachineDescription {
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        let swift = (try? ChildProcess.run("/usr/bin/env", ["swift", "--version"], captureOutput: true))?
            .split(separator: "\n").first.map(String.init) ?? "unknown"
        let date = ISO8601DateFormatter().string(from: Date())
        let line = "Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + String(format: "%.1f GiB RAM", memory)
            + ", \(swift), \(date), disk: \(disk(of: directory)); load average before \(loadBefore), after \(loadAverage())."
        return MachineDescription(line: line)
    }

    /// The 1-minute load average (`/proc/loadavg`).
    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
    }

    /// The device and file system of the longest mount point that holds `path` (`/proc/mounts`).
    static func disk(of path: String) -> String {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return "unknown" }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (point: String, text: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1])
            guard resolved == point || resolved.hasPrefix(point == "/" ? "/" : point + "/") else { continue }
            if point.count >= (best?.point.count ?? -1) { best = (point, "\(fields[0]) (\(fields[2])) on \(point)") }
        }
        return best?.text ?? "unknown"
    }
}
