import ArgumentParser

/// `--allow-damaged`: read the valid prefix of a damaged journal instead of refusing it.
/// Without it every reading subcommand fails (exit 2) on damage anywhere but a torn tail, and
/// on a journal shorter than its checkpoint or key store prove, naming segment and sequence.
struct DamageOption: ParsableArguments {
    @Flag(name: .customLong("allow-damaged"), help: "Read the valid prefix of a damaged journal; stderr says what was dropped.")
    var allowDamaged = false
}
