import Foundation
import TallyFuzzTargets
import TallyTestSupport
import Testing

/// Every checked-in input of every fuzz target (the seed corpus and the regressions, one file
/// per bug the fuzzer found) goes through the same entry point libFuzzer calls, so `swift test`
/// keeps fixed bugs fixed. A trap in the product code fails the test run outright.
@Suite("Fuzz corpora")
struct FuzzCorpusTests {
    static let fuzzDirectory = RepositoryFiles.url("Fuzz")

    @Test("every seed and regression input passes its target", arguments: FuzzTarget.allCases)
    func everyCheckedInInputPassesItsTarget(_ target: FuzzTarget) throws {
        let seeds = FuzzCorpus.files(at: Self.fuzzDirectory.appendingPathComponent("Corpus/\(target.directoryName)"))
        let regressions = FuzzCorpus.files(at: Self.fuzzDirectory.appendingPathComponent("Regressions/\(target.directoryName)"))
        #expect(!seeds.isEmpty, "Fuzz/Corpus/\(target.directoryName) has no seeds")
        for file in seeds + regressions {
            let bytes = try #require(FileManager.default.contents(atPath: file.path))
            if let finding = target.finding(for: Array(bytes)) {
                Issue.record("\(file.lastPathComponent): \(finding)")
            }
        }
    }

    @Test("the checked-in corpora stay small")
    func corporaStaySmall() throws {
        var totalBytes = 0
        for target in FuzzTarget.allCases {
            for directory in ["Corpus", "Regressions"] {
                for file in FuzzCorpus.files(at: Self.fuzzDirectory.appendingPathComponent("\(directory)/\(target.directoryName)")) {
                    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
                    totalBytes += (attributes[.size] as? Int) ?? 0
                }
            }
        }
        #expect(totalBytes < 300_000, "the fuzz corpora hold \(totalBytes) bytes; keep them under 300 KB")
    }
}
