import BenchmarkSupport
import Foundation

// tally-scale (issues 14 and 15): Tally vs a GRDB app executing the same commands and answering
// the same queries, at 10k, 100k and 1M events; every measurement in a fresh child process.
// Run from Benchmarks/:
//   swift build -c release --product tally-scale --product tally
//   .build/release/tally-scale --sizes 10k,100k,1M --output scale.md
// See Docs/Performance.md, "Issue 14" and "Issue 15". addPerson against the people already in a
// ledger (issue 28, item 4) alone:
//   .build/release/tally-scale --sizes none --apply-commands 0 --people-before 10,10k --people-added 500

func runChild(_ arguments: [String]) async {
    do {
        guard let text = arguments.first else { throw ScaleError.child("child needs a request") }
        let request = try JSONDecoder().decode(ChildRequest.self, from: Data(text.utf8))
        let figures = try await ScaleChild.run(request)
        let encoded = String(decoding: try JSONEncoder().encode(figures), as: UTF8.self)
        print(ChildRequest.figuresPrefix + encoded)
    } catch {
        FileHandle.standardError.write(Data("tally-scale child: failed: \(error)\n".utf8))
        exit(1)
    }
}

func runCoordinator(_ arguments: [String]) {
    let options = ScaleOptions.parse(arguments)
    let loadBefore = MachineDescription.loadAverage()
    var run = ScaleRun(options: options)
    let start = Stopwatch.now()
    do {
        try run.run()
    } catch {
        FileHandle.standardError.write(Data("tally-scale: failed: \(error)\n".utf8))
        exit(1)
    }
    let report = ScaleReport(
        run: run, machine: .current(directory: options.directory, loadBefore: loadBefore),
        seconds: Double(Stopwatch.now() - start) / 1e9
    ).markdown()
    print(report)
    if let path = options.outputPath {
        do {
            try (report + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("tally-scale: cannot write \(path): \(error)\n".utf8))
            exit(1)
        }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "child" {
    await runChild(Array(arguments.dropFirst()))
} else {
    runCoordinator(arguments)
}
