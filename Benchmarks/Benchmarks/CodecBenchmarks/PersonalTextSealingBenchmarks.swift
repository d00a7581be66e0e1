import Benchmark
import Crypto
import Foundation
import TallyModel

/// The per-text cost of sealing personal data (P1 in `Docs/Security.md`): swift-crypto
/// `AES.GCM` with a 256-bit key and the owner's 16-byte id as authenticated data, the primitive
/// `PersonalKeyRing` uses, on a note like the workload's ("Migros", 6 bytes). 1,000 texts per
/// iteration (`scalingFactor: .kilo`): throughput is texts/s, and wall clock in
/// nanoseconds is per text (ordo-one divides scaled metrics by the factor).
///
/// - `AES-GCM.seal-note`: UTF-8 bytes, seal with a random nonce, the combined bytes out.
/// - `AES-GCM.open-note`: combined bytes in, open, validate UTF-8.
/// - `AES-GCM.seal-note-as-engine` / `open-note-as-engine`: the same plus what
///   `PersonalKeyRing.seal`/`open` add per call: a `SymmetricKey` made from the stored key bytes
///   and the owner's id written into a fresh buffer.
func registerPersonalTextSealingBenchmarks() {
    let note = "Migros"
    let keyBytes = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
    let key = SymmetricKey(data: keyBytes)
    var ids = DeterministicIDGenerator(seed: 2026)
    let owner: PersonID = ids.next()
    let ownerBytes = ownerContext(owner)
    let sealed: [UInt8] = {
        do {
            guard let combined = try AES.GCM.seal(Array(note.utf8), using: key, authenticating: ownerBytes).combined else {
                preconditionFailure("the default 12-byte nonce always gives a combined box")
            }
            return Array(combined)
        } catch {
            preconditionFailure("AES-GCM seal failed: \(error)")
        }
    }()

    // One text takes microseconds: report wall clock in nanoseconds per text.
    let nanoseconds = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds, scalingFactor: .kilo,
        maxDuration: .seconds(3), maxIterations: 1_000)

    Benchmark("AES-GCM.seal-note", configuration: nanoseconds) { benchmark in
        for _ in 0..<benchmark.scaledIterations.count {
            blackHole(try AES.GCM.seal(Array(note.utf8), using: key, authenticating: ownerBytes).combined)
        }
    }

    Benchmark("AES-GCM.open-note", configuration: nanoseconds) { benchmark in
        for _ in 0..<benchmark.scaledIterations.count {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plain = try AES.GCM.open(box, using: key, authenticating: ownerBytes)
            blackHole(String(validating: plain, as: UTF8.self))
        }
    }

    Benchmark("AES-GCM.seal-note-as-engine", configuration: nanoseconds) { benchmark in
        for _ in 0..<benchmark.scaledIterations.count {
            let box = try AES.GCM.seal(Array(note.utf8), using: SymmetricKey(data: keyBytes), authenticating: ownerContext(owner))
            blackHole(box.combined.map { Array($0) })
        }
    }

    Benchmark("AES-GCM.open-note-as-engine", configuration: nanoseconds) { benchmark in
        for _ in 0..<benchmark.scaledIterations.count {
            let box = try AES.GCM.SealedBox(combined: sealed[...])
            let plain = try AES.GCM.open(box, using: SymmetricKey(data: keyBytes), authenticating: ownerContext(owner))
            blackHole(String(validating: plain, as: UTF8.self))
        }
    }
}

/// The owner's id as the 16 bytes the engine authenticates with every text.
func ownerContext(_ owner: PersonID) -> [UInt8] {
    var writer = BinaryWriter(reservingCapacity: 16)
    writer.writeUUID(owner.value)  // the wire form of an id, as `PersonalKeyRing.context` writes it
    return writer.bytes
}
