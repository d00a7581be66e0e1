import TallyFuzzTargets

/// libFuzzer's callback: one input through `FuzzTargets.eventCodec`.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(.eventCodec, data, size)
}

/// `fuzz-event-codec`: fuzzes in a `-sanitize=fuzzer -DTALLY_FUZZING` build, replays its corpus otherwise.
@main
enum FuzzEventCodec {
    static func main() {
        FuzzDriver.main(.eventCodec, testOneInput: testOneInput)
    }
}
