import TallyFuzzTargets

/// libFuzzer's callback: one input through `FuzzTargets.journalFrames`.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(.journalFrames, data, size)
}

/// `fuzz-journal-frames`: fuzzes in a `-sanitize=fuzzer -DTALLY_FUZZING` build, replays its corpus otherwise.
@main
enum FuzzJournalFrames {
    static func main() {
        FuzzDriver.main(.journalFrames, testOneInput: testOneInput)
    }
}
