import Foundation

/// The example's command line: one ledger, given as a commands file or a ledger directory.
struct HostArguments {
    static let usage = """
        usage: TallyHostExample [LEDGER] [--as NAME] [--page-size N]
          LEDGER  a JSON Lines commands file (Sources/Tally/Tally.docc/Commands.md), executed into a new temporary
                  ledger, or an existing ledger directory, opened in place (the example records
                  one expense in it); default: Sources/TallyCLI/Demo/household.jsonl
          --as NAME      the person signed in (G7: the screens show what they see); default: the admin
          --page-size N  rows per transaction page, 1...\(pageSizeMax) (default 5)
        """

    /// The largest page the example asks for (the store's limit is larger).
    static let pageSizeMax = 100

    /// The commands file or ledger directory.
    var ledgerPath = "Sources/TallyCLI/Demo/household.jsonl"
    /// Rows per transaction page.
    var pageSize = 5
    /// `--as`: the name of the person signed in; `nil` for the household's admin.
    var person: String?
    /// `--help`: print ``usage`` and do nothing else.
    var showsHelp = false

    /// Reads the arguments after the program name.
    /// - Throws: ``HostExampleError/usage(_:)`` for an unknown option, a missing or bad value,
    ///   or more than one ledger.
    init(_ arguments: some Collection<String>) throws(HostExampleError) {
        var remaining = arguments[...]
        var path: String?
        while let argument = remaining.popFirst() {
            switch argument {
            case "--page-size":
                guard let text = remaining.popFirst(), let size = Int(text), (1...Self.pageSizeMax).contains(size) else {
                    throw .usage("--page-size needs a number of rows, 1...\(Self.pageSizeMax)")
                }
                pageSize = size
            case "--as":
                guard let name = remaining.popFirst() else { throw .usage("--as needs a person's name") }
                person = name
            case "--help", "-h":
                showsHelp = true
            default:
                guard !argument.hasPrefix("-") else { throw .usage("unknown option \(argument)") }
                guard path == nil else { throw .usage("give one ledger, not \(path ?? "") and \(argument)") }
                path = argument
            }
        }
        if let path { ledgerPath = path }
    }
}
