import TallyFuzzTargets

/// libFuzzer's callback: one input through `FuzzTargets.csvImport`.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(.csvImport, data, size)
}

/// `fuzz-csv-import`: fuzzes in a `-sanitize=fuzzer -DTALLY_FUZZING` build, replays its corpus otherwise.
@main
enum FuzzCSVImport {
    static func main() {
        FuzzDriver.main(.csvImport, testOneInput: testOneInput)
    }
}
