import TallyFuzzTargets

/// libFuzzer's callback: one input through `FuzzTargets.commandParser`.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(.commandParser, data, size)
}

/// `fuzz-command-parser`: fuzzes in a `-sanitize=fuzzer -DTALLY_FUZZING` build, replays its corpus otherwise.
@main
enum FuzzCommandParser {
    static func main() {
        FuzzDriver.main(.commandParser, testOneInput: testOneInput)
    }
}
