import Foundation
import Tally
import TallyModel

/// The wire form of a command a device pushes (Docs/Sync.md, "Push: commands"): the command's
/// push form (every personal field `[sealed]`, `CommandAction.syncPushForm`) as its JSON line
/// (Docs/Commands.md), and the texts it enters as the device sealed them, in the order the
/// executor enters them (``EnteredTexts``).
///
/// ```json
/// {"command":"{\"type\":\"addPerson\",...}","texts":[{"owner":"<uuid>","sealed":"<base64>"},{"kept":true}]}
/// ```
///
/// No personal text is in clear: the server reads amounts, dates, ids and structure, never a
/// name or a note (Docs/Security.md, "What a sync server reads").
package struct PushedCommand: Sendable, Equatable {
    /// The command in its push form.
    package var command: Command
    /// The texts it enters, kept or sealed with their owner's key.
    package var texts: [EnteredTexts.Entry]

    /// The push of `command` (its personal fields replaced by `[sealed]`) with `texts`.
    package init(pushing command: Command, texts: [EnteredTexts.Entry]) {
        self.command = Command(
            commandID: command.commandID, actor: command.actor, recordedAt: command.recordedAt, action: command.action.syncPushForm)
        self.texts = texts
    }

    private struct Wire: Codable {
        struct Text: Codable {
            var kept: Bool?
            var owner: String?
            var sealed: String?
        }

        var command: String
        var texts: [Text]
    }

    /// The body a device sends.
    package var body: [UInt8] {
        let wire = Wire(command: command.jsonLine, texts: texts.map { entry in
            switch entry {
            case .kept: Wire.Text(kept: true)
            case .sealed(let owner, let bytes): Wire.Text(owner: owner.description, sealed: Data(bytes).base64EncodedString())
            }
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and optionals cannot fail.
        return (try? Array(encoder.encode(wire))) ?? []
    }

    /// Reads a pushed body.
    /// - Throws: ``SyncError/commandInvalid(_:)`` saying what is wrong: not the JSON above, a
    ///   command line that does not parse (with the parser's message), an entry that is neither
    ///   kept nor an owner's id with base64 bytes.
    package init(body: [UInt8]) throws(SyncError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(body))
        } catch {
            throw .commandInvalid("a push must be {\"command\": a command's JSON line, \"texts\": [...]}: \(error)")
        }
        do {
            command = try CommandParser.parse(line: wire.command)
        } catch {
            throw .commandInvalid("the pushed command does not parse: \(error)")
        }
        var texts: [EnteredTexts.Entry] = []
        for (index, text) in wire.texts.enumerated() {
            switch (text.kept, text.owner, text.sealed) {
            case (true?, nil, nil):
                texts.append(.kept)
            case (nil, let owner?, let sealed?):
                guard let person = try? PersonID(parsing: owner), let bytes = Data(base64Encoded: sealed) else {
                    throw .commandInvalid("text \(index + 1): owner must be a person's id and sealed base64 bytes")
                }
                texts.append(.sealed(owner: person, bytes: Array(bytes)))
            default:
                throw .commandInvalid("text \(index + 1) must be {\"kept\": true} or {\"owner\": id, \"sealed\": base64}")
            }
        }
        self.texts = texts
    }
}
