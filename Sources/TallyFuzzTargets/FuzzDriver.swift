import Foundation
#if TALLY_FUZZING
import CLibFuzzer
#endif

/// The `main` of the fuzz executables.
///
/// Built with `-sanitize=fuzzer -DTALLY_FUZZING` (`Fuzz/run`), it hands the process to
/// libFuzzer (`LLVMFuzzerRunDriver`), which takes libFuzzer's usual arguments. Built normally
/// (`swift build`), it replays files instead: the paths given (files or directories), or by
/// default `Fuzz/Corpus/<target>` and `Fuzz/Regressions/<target>` under the current directory.
///
/// Why not libFuzzer's own `main`: SwiftPM links executables with `--defsym main=<module>_main`,
/// so a module without a Swift `@main` does not link at all.
public enum FuzzDriver {
    /// The C signature of `LLVMFuzzerTestOneInput`.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs `target` on one input and traps on a ``FuzzFinding``, so libFuzzer saves the input.
    public static func testOneInput(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        do {
            try target.run(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size))
        } catch {
            fatalError("fuzz-\(target.rawValue) finding: \(error)")
        }
        return 0
    }

    /// Fuzzes (in a fuzzing build) or replays inputs (otherwise), then exits.
    public static func main(_ target: FuzzTarget, testOneInput: TestOneInput) -> Never {
        #if TALLY_FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
        exit(replay(target))
        #endif
    }
}

extension FuzzDriver {
    /// Replays the files named on the command line (or the target's checked-in directories).
    /// - Returns: the exit status: 0 when every input passed, 1 on a finding, 2 on a read error.
    static func replay(_ target: FuzzTarget) -> Int32 {
        var paths = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }
        if paths.isEmpty {
            paths = ["Fuzz/Corpus/\(target.directoryName)", "Fuzz/Regressions/\(target.directoryName)"]
        }
        var count = 0
        for path in paths {
            for file in FuzzCorpus.files(at: URL(fileURLWithPath: path)) {
                guard let bytes = FileManager.default.contents(atPath: file.path) else {
                    print("fuzz-\(target.rawValue): cannot read \(file.path)")
                    return 2
                }
                if let finding = target.finding(for: Array(bytes)) {
                    print("fuzz-\(target.rawValue): \(file.path): \(finding)")
                    return 1
                }
                count += 1
            }
        }
        print("fuzz-\(target.rawValue): replayed \(count) inputs (not a fuzzing build: Fuzz/run builds one)")
        return 0
    }
}

/// The input files of a corpus.
public enum FuzzCorpus {
    /// `url` itself when it is a file; the regular files directly inside it, sorted by name,
    /// when it is a directory (hidden files skipped); nothing when it does not exist.
    public static func files(at url: URL) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [url] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0) }
    }
}
