import Foundation

/// CPU time of processes from `/proc/<pid>/stat` (Linux): user and system time, in seconds.
public enum ProcessCPU {
    /// The CPU seconds process `pid` has used (user + system), and with `children` the seconds of
    /// its children it has reaped; nil when it cannot be read.
    public static func seconds(of pid: Int32, children: Bool = false) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3; utime, stime, cutime, cstime are fields 14-17.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 14 else { return nil }
        let counted = children ? fields[11...14] : fields[11...12]
        let ticks = counted.compactMap { Double($0) }.reduce(0, +)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The CPU seconds of every process whose command name is `name` (`postgres`), with what
    /// they reaped of their children (a backend that exited is counted by the postmaster).
    public static func seconds(ofEveryProcessNamed name: String) -> Double {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        var total = 0.0
        for entry in entries {
            guard let pid = Int32(entry),
                  let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
            else { continue }
            total += seconds(of: pid, children: true) ?? 0
        }
        return total
    }
}
