import ArgumentParser
import Crypto
import Foundation
import Tally
import TallyInterchange
import TallyModel

/// `tally attachments add|remove|list|referenced`: files attached to transactions and group
/// expenses by reference (T6, Swiff 2.2.1 receipts; Docs/Attachments.md). The ledger keeps the
/// digest, name, size and media type; the bytes stay wherever the host keeps them.
struct AttachmentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachments", abstract: "Attach files (receipts) to transactions and group expenses, list and remove them.",
        subcommands: [Add.self, Remove.self, List.self, Referenced.self])

    /// The item an attachment is on: exactly one of the two options.
    struct ItemOptions: ParsableArguments {
        @Option(help: ArgumentHelp("The transaction (UUID).", valueName: "ID")) var transaction: String?
        @Option(name: .customLong("group-expense"), help: ArgumentHelp("The group expense (UUID).", valueName: "ID")) var groupExpense: String?

        func item() throws -> AttachedItem {
            switch (transaction, groupExpense) {
            case (let id?, nil): return .transaction(try Identifiers.parse(id, option: "--transaction"))
            case (nil, let id?): return .groupExpense(try Identifiers.parse(id, option: "--group-expense"))
            default: throw CLIError("give exactly one of --transaction ID and --group-expense ID")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Attach a file: its SHA-256 digest, name, size and media type are recorded, not its bytes.",
            discussion: "Example: tally attachments add receipt.jpg --transaction ID --ledger DIR. Prints {status,contentHash,commandID}; keep the file under its digest.")

        @Argument(help: "The file to attach (read to compute its digest and size).") var file: String
        @OptionGroup var item: ItemOptions
        @Option(name: .customLong("media-type"), help: ArgumentHelp("Its media type; default from the file's extension.", valueName: "TYPE")) var mediaType: String?
        @Option(help: ArgumentHelp("The name to record; default the file's name.", valueName: "NAME")) var name: String?
        @OptionGroup var writing: ImportMappingCommand.Writing

        func run() async throws {
            let target = try item.item()
            let (hash, size) = try Self.digest(of: file)
            let fileName = name ?? URL(fileURLWithPath: file).lastPathComponent
            let type = mediaType ?? Self.mediaType(forExtension: URL(fileURLWithPath: file).pathExtension)
            let (_, id) = try await writing.execute { _ in
                .addAttachment(item: target, contentHash: hash, name: fileName, byteCount: size, mediaType: type)
            }
            var results = ResultLines()
            results.line(CanonicalJSON.text(orderedMembers: [
                ("status", .string("attached")), ("contentHash", .string(hash.hex)), ("commandID", .string(id.description)),
            ]))
            try results.requireDelivered(outcome: "the file was attached")
        }

        /// The SHA-256 digest and size of the file at `path`, read in 1 MiB chunks.
        static func digest(of path: String) throws -> (ContentHash, Int64) {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError("\(path): cannot open the file") }
            defer { try? handle.close() }
            var hasher = SHA256()
            var size: Int64 = 0
            while true {
                let chunk: Data
                do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch { throw CLIError("\(path): \(error.localizedDescription)") }
                if chunk.isEmpty { break }
                hasher.update(data: chunk)
                size += Int64(chunk.count)
            }
            do { return (try ContentHash(bytes: Array(hasher.finalize())), size) } catch { throw CLIError("\(path): \(error.message)") }
        }

        /// The media type of common receipt files by extension; `application/octet-stream` else.
        static func mediaType(forExtension fileExtension: String) -> String {
            switch fileExtension.lowercased() {
            case "jpg", "jpeg": "image/jpeg"
            case "png": "image/png"
            case "heic": "image/heic"
            case "gif": "image/gif"
            case "webp": "image/webp"
            case "pdf": "application/pdf"
            case "txt": "text/plain"
            case "csv": "text/csv"
            default: "application/octet-stream"
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a file off its item (by digest).")

        @Argument(help: "The file's SHA-256 digest (64 hex digits).") var contentHash: String
        @OptionGroup var item: ItemOptions
        @OptionGroup var writing: ImportMappingCommand.Writing

        func run() async throws {
            let target = try item.item()
            let hash: ContentHash
            do { hash = try ContentHash(hex: contentHash) } catch { throw CLIError(error.message) }
            let (_, id) = try await writing.execute { _ in .removeAttachment(item: target, contentHash: hash) }
            var results = ResultLines()
            results.line(CanonicalJSON.text(orderedMembers: [
                ("status", .string("removed")), ("contentHash", .string(hash.hex)), ("commandID", .string(id.description)),
            ]))
            try results.requireDelivered(outcome: "the file was removed")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the files attached to an item, one JSON line each, by digest.",
            discussion: "A member (--as) sees the files of the items they see (G7); a deleted item lists none.")

        @OptionGroup var item: ItemOptions
        @OptionGroup var location: LedgerLocation
        @OptionGroup var key: KeyOptions
        @OptionGroup var viewer: ViewerOption

        func run() async throws {
            let target = try item.item()
            let path = try location.path()
            let history = try LedgerAccess.history(at: path, encryption: try key.encryption())
            var results = ResultLines()
            for attachment in history.state.attachments(of: target, visibleTo: try viewer.viewer(in: history)) {
                results.line(CanonicalJSON.text(orderedMembers: [
                    ("contentHash", .string(attachment.contentHash.hex)), ("name", .string(attachment.name)),
                    ("byteCount", .integer(attachment.byteCount)), ("mediaType", .string(attachment.mediaType)),
                    ("addedBy", .string(attachment.addedBy.description)), ("addedAt", .string(attachment.addedAt.iso8601)),
                ]))
            }
            try results.requireDelivered(outcome: "")
        }
    }

    struct Referenced: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every digest an attachment or an avatar photo still references, one per line: keep those files, delete the rest.",
            discussion: "The household-admin read (every item's attachments, deleted items' included; removed ones and those of forgotten people are not).")

        @OptionGroup var location: LedgerLocation
        @OptionGroup var key: KeyOptions

        func run() async throws {
            let path = try location.path()
            let history = try LedgerAccess.history(at: path, encryption: try key.encryption())
            var results = ResultLines()
            for hash in history.state.attachedContentHashes() { results.line(hash.hex) }
            try results.requireDelivered(outcome: "")
        }
    }
}
