import Tally
import TallyModel
import TallyTestSupport
import Testing

/// T6 (issue 31 item 5, Swiff 2.2.1 receipts): files attached to transactions and group expenses
/// by reference (digest, name, size, media type), the bytes the host's; served with the item as
/// the viewer sees it (G7), hidden while it is deleted (T3), undoable (T5), gone when their
/// author is forgotten (P3).
@Suite("Attachments (T6, Swiff 2.2.1)")
struct AttachmentTests {
    static func hash(_ byte: UInt8) -> ContentHash {
        (try? ContentHash(bytes: [UInt8](repeating: byte, count: 32))) ?? { fatalError("32 bytes are a digest") }()
    }

    static let receipt = Self.hash(0xA1)
    static let invoice = Self.hash(0xB2)

    /// A household with Alice's personal expense, a shared one and a group expense of Alice and Bob.
    static func household(_ label: String) async throws -> (TestLedger, Scenario, personal: TransactionID, shared: TransactionID, group: GroupID, expense: GroupExpenseID) {
        var s = Scenario()
        let test = try await TestLedger.make(label, durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let personal: TransactionID = s.ids.next()
        let shared: TransactionID = s.ids.next()
        let group: GroupID = s.ids.next()
        let expense: GroupExpenseID = s.ids.next()
        try await test.ledger.execute([
            s.command(.recordTransaction(transactionID: personal, entry: s.expense(4_250))),
            s.command(.recordTransaction(transactionID: shared, entry: s.expense(8_000, shared: true))),
            s.command(.createGroup(groupID: group, name: "Ski trip", members: [s.alice, s.bob])),
            s.command(.recordGroupExpense(
                expenseID: expense, groupID: group, paidBy: s.bob, amount: Scenario.chf(12_000), date: Scenario.date("2026-01-07"),
                split: .equal([s.alice, s.bob])), by: s.bob),
        ])
        return (test, s, personal, shared, group, expense)
    }

    static func attach(_ s: inout Scenario, _ item: AttachedItem, _ hash: ContentHash, name: String = "receipt.jpg",
                       by actor: PersonID? = nil) -> Command {
        s.command(.addAttachment(item: item, contentHash: hash, name: name, byteCount: 48_213, mediaType: "image/JPEG"), by: actor)
    }

    @Test("T6 Swiff 2.2.1: a receipt on a transaction and on a group expense, with its name, size, media type, author and time; kept across reopen and a checkpoint")
    func attachAndList() async throws {
        var (test, s, personal, _, _, expense) = try await Self.household("attachments-list")
        try await test.ledger.execute(Self.attach(&s, .transaction(personal), Self.receipt))
        let attachedAt = Timestamp(millisecondsSinceEpoch: s.clock)
        try await test.ledger.execute(Self.attach(&s, .transaction(personal), Self.invoice, name: "invoice.pdf"))
        try await test.ledger.execute(Self.attach(&s, .groupExpense(expense), Self.receipt, name: "hut.jpg", by: s.bob))
        let listed = await test.ledger.attachments(of: .transaction(personal), visibleTo: .member(s.alice))
        #expect(listed.map(\.contentHash) == [Self.receipt, Self.invoice])
        #expect(listed.map(\.name) == ["receipt.jpg", "invoice.pdf"])
        #expect(listed.first?.mediaType == "image/jpeg", "the media type is kept lowercased")
        #expect(listed.first?.byteCount == 48_213 && listed.first?.addedBy == s.alice && listed.first?.addedAt == attachedAt)
        let onExpense = await test.ledger.attachments(of: .groupExpense(expense), visibleTo: .member(s.alice))
        #expect(onExpense.map(\.name) == ["hut.jpg"] && onExpense.first?.addedBy == s.bob)
        #expect(await test.ledger.attachedContentHashes() == [Self.receipt, Self.invoice], "one digest on two items is one file")

        try await test.ledger.checkpoint()
        #expect(await test.ledger.attachments(of: .transaction(personal), visibleTo: .audit) == listed, "read from the store's history after a checkpoint")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.attachments(of: .transaction(personal), visibleTo: .audit) == listed)
        #expect(await reopened.attachments(of: .groupExpense(expense), visibleTo: .audit) == onExpense)
        try await reopened.close()
    }

    @Test("G7: a member gets the attachments of the items they see only; another member's personal transaction reads as unknown to them, for reading and attaching")
    func privacy() async throws {
        var (test, s, personal, shared, group, expense) = try await Self.household("attachments-privacy")
        try await test.ledger.execute([
            Self.attach(&s, .transaction(personal), Self.receipt),
            Self.attach(&s, .transaction(shared), Self.invoice),
            Self.attach(&s, .groupExpense(expense), Self.receipt),
        ])
        #expect(await test.ledger.attachments(of: .transaction(personal), visibleTo: .member(s.bob)).isEmpty, "Alice's personal receipt")
        let bobsFeed = try await test.ledger.activity(ActivityQuery(visibleTo: .member(s.bob))).entries.flatMap(\.entities)
        #expect(!bobsFeed.contains { $0.hasPrefix("attachment/transaction/\(personal)") }, "nor its activity entry")
        #expect(bobsFeed.contains { $0.hasPrefix("attachment/transaction/\(shared)") }, "the shared one's entry is his to see")
        #expect(await test.ledger.attachments(of: .transaction(personal), visibleTo: .member(s.alice)).count == 1)
        #expect(await test.ledger.attachments(of: .transaction(shared), visibleTo: .member(s.bob)).count == 1, "a shared item's")
        await expectRejection(test.ledger, Self.attach(&s, .transaction(personal), Self.invoice, by: s.bob), code: "unknownTransaction", rule: "T1")
        await expectRejection(test.ledger, s.command(.removeAttachment(item: .transaction(personal), contentHash: Self.receipt), by: s.bob),
                              code: "unknownTransaction", rule: "T1")
        #expect(await test.ledger.attachments(of: .groupExpense(expense), visibleTo: .member(s.bob)).count == 1, "a group member's")
        // A group Bob is not in: its expense's files are not his to read or change.
        let other: GroupID = s.ids.next()
        let dinner: GroupExpenseID = s.ids.next()
        try await test.ledger.execute([
            s.command(.addPerson(personID: Scenario.carol, name: "Carol")),
            s.command(.createGroup(groupID: other, name: "Book club", members: [s.alice, Scenario.carol])),
            s.command(.recordGroupExpense(
                expenseID: dinner, groupID: other, paidBy: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-08"),
                split: .equal([s.alice, Scenario.carol]))),
            Self.attach(&s, .groupExpense(dinner), Self.invoice),
        ])
        #expect(await test.ledger.attachments(of: .groupExpense(dinner), visibleTo: .member(s.bob)).isEmpty)
        #expect(await test.ledger.attachments(of: .groupExpense(dinner), visibleTo: .member(s.alice)).count == 1)
        await expectRejection(test.ledger, Self.attach(&s, .groupExpense(dinner), Self.receipt, by: s.bob), code: "unknownGroupExpense", rule: "S7")
        _ = group
    }

    @Test("T6: unknown, deleted and duplicate items, an empty name, a size or media type out of bounds, more than LedgerLimits.attachmentsPerItemMax files, and removing a file not attached are refused")
    func rules() async throws {
        var (test, s, personal, _, _, expense) = try await Self.household("attachments-rules")
        await expectRejection(test.ledger, Self.attach(&s, .transaction(s.ids.next()), Self.receipt), code: "unknownTransaction", rule: "T1")
        await expectRejection(test.ledger, Self.attach(&s, .groupExpense(s.ids.next()), Self.receipt), code: "unknownGroupExpense", rule: "S7")
        func add(name: String = "r.jpg", size: Int64 = 10, type: String = "image/jpeg") -> Command {
            s.command(.addAttachment(item: .transaction(personal), contentHash: Self.receipt, name: name, byteCount: size, mediaType: type))
        }
        await expectRejection(test.ledger, add(name: "  "), code: "attachmentInvalid", rule: "T6")
        await expectRejection(test.ledger, add(size: 0), code: "attachmentInvalid", rule: "T6")
        await expectRejection(test.ledger, add(size: LedgerLimits.attachmentBytesMax + 1), code: "attachmentInvalid", rule: "T6")
        for type in ["jpeg", "image/", "/jpeg", "image/jpeg/x", "image/jp eg", "image/jpeg; q=1"] {
            await expectRejection(test.ledger, add(type: type), code: "attachmentInvalid", rule: "T6")
        }
        await expectRejection(test.ledger, add(name: String(repeating: "x", count: LedgerLimits.nameBytesMax + 1)), code: "inputTooLarge", rule: "G6")
        try await test.ledger.execute(add())
        await expectRejection(test.ledger, add(), code: "attachmentExists", rule: "T6")
        await expectRejection(test.ledger, s.command(.removeAttachment(item: .transaction(personal), contentHash: Self.invoice)),
                              code: "unknownAttachment", rule: "T6")
        for index in 1..<LedgerLimits.attachmentsPerItemMax {
            try await test.ledger.execute(Self.attach(&s, .transaction(personal), Self.hash(UInt8(index))))
        }
        await expectRejection(test.ledger, Self.attach(&s, .transaction(personal), Self.invoice), code: "attachmentsFull", rule: "T6")
        try await test.ledger.execute(s.command(.removeAttachment(item: .transaction(personal), contentHash: Self.hash(1))))
        try await test.ledger.execute(Self.attach(&s, .transaction(personal), Self.invoice))  // room again
        try await test.ledger.execute(s.command(.deleteGroupExpense(expenseID: expense), by: s.bob))
        await expectRejection(test.ledger, Self.attach(&s, .groupExpense(expense), Self.receipt), code: "groupExpenseDeleted", rule: "S7")
    }

    @Test("T3, T6: a deleted transaction's files are not served until it is restored, and their digests stay referenced; a removed file's digest is not")
    func deletionHides() async throws {
        var (test, s, personal, shared, _, _) = try await Self.household("attachments-deleted")
        try await test.ledger.execute([Self.attach(&s, .transaction(personal), Self.receipt), Self.attach(&s, .transaction(shared), Self.invoice)])
        try await test.ledger.execute(s.command(.deleteTransaction(transactionID: personal)))
        #expect(await test.ledger.attachments(of: .transaction(personal), visibleTo: .audit).isEmpty)
        await expectRejection(test.ledger, s.command(.removeAttachment(item: .transaction(personal), contentHash: Self.receipt)),
                              code: "transactionDeleted", rule: "T3")
        #expect(await test.ledger.attachedContentHashes() == [Self.receipt, Self.invoice], "restorable: the host keeps the bytes")
        try await test.ledger.execute(s.command(.restoreTransaction(transactionID: personal)))
        #expect(await test.ledger.attachments(of: .transaction(personal), visibleTo: .audit).map(\.contentHash) == [Self.receipt])
        try await test.ledger.execute(s.command(.removeAttachment(item: .transaction(shared), contentHash: Self.invoice)))
        #expect(await test.ledger.attachments(of: .transaction(shared), visibleTo: .audit).isEmpty)
        #expect(await test.ledger.attachedContentHashes() == [Self.receipt])
    }

    @Test("T5: undoing an attach takes the file off, redo puts it back; undoing a removal attaches it again with its name and author")
    func undoAndRedo() async throws {
        var (test, s, personal, shared, _, _) = try await Self.household("attachments-undo")
        let attach = Self.attach(&s, .transaction(shared), Self.receipt, name: "bill.png", by: s.bob)
        try await test.ledger.execute(attach)
        try await test.ledger.execute(s.command(.undo(targetCommandID: attach.commandID), by: s.bob))
        #expect(await test.ledger.attachments(of: .transaction(shared), visibleTo: .audit).isEmpty)
        try await test.ledger.execute(s.command(.redo(targetCommandID: attach.commandID), by: s.bob))
        #expect(await test.ledger.attachments(of: .transaction(shared), visibleTo: .audit).map(\.name) == ["bill.png"])
        let remove = s.command(.removeAttachment(item: .transaction(shared), contentHash: Self.receipt))
        try await test.ledger.execute(remove)
        try await test.ledger.execute(s.command(.undo(targetCommandID: remove.commandID)))
        let back = await test.ledger.attachments(of: .transaction(shared), visibleTo: .audit)
        #expect(back.map(\.name) == ["bill.png"] && back.first?.addedBy == s.bob, "the author stays Bob, though Alice undid the removal")
        // An attachment never blocks undoing the item's own commands: the undone item takes its files with it.
        let lunch: TransactionID = s.ids.next()
        let record = s.command(.recordTransaction(transactionID: lunch, entry: s.expense(1_900)))
        try await test.ledger.execute([record, Self.attach(&s, .transaction(lunch), Self.invoice)])
        try await test.ledger.execute(s.command(.undo(targetCommandID: record.commandID)))
        #expect(await test.ledger.attachments(of: .transaction(lunch), visibleTo: .audit).isEmpty)
        _ = personal
    }

    @Test("P3: forgetting a person takes off the files they attached: not served, not referenced, their names redacted in the journal")
    func forgettingRemoves() async throws {
        var (test, s, _, shared, _, _) = try await Self.household("attachments-forget")
        try await test.ledger.execute([
            Self.attach(&s, .transaction(shared), Self.receipt, name: "bob-receipt.jpg", by: s.bob),
            Self.attach(&s, .transaction(shared), Self.invoice, name: "alice-invoice.pdf"),
        ])
        try await test.ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
        try await test.ledger.execute(s.command(.forgetPerson(personID: s.bob)))
        #expect(await test.ledger.attachments(of: .transaction(shared), visibleTo: .audit).map(\.name) == ["alice-invoice.pdf"])
        #expect(await test.ledger.attachedContentHashes() == [Self.invoice])
        // The same file can be attached again by someone else.
        try await test.ledger.execute(Self.attach(&s, .transaction(shared), Self.receipt, name: "again.jpg"))
        #expect(await test.ledger.attachments(of: .transaction(shared), visibleTo: .audit).map(\.name) == ["again.jpg", "alice-invoice.pdf"])
    }

    @Test("T6: the command's JSON form names the item as {\"transaction\": id} or {\"groupExpense\": id} and the digest in hex, and parses back")
    func jsonRoundTrip() throws {
        var s = Scenario()
        let command = Self.attach(&s, .groupExpense(s.ids.next()), Self.receipt)
        let line = command.jsonLine
        #expect(line.contains("\"item\":{\"groupExpense\":") && line.contains(String(repeating: "a1", count: 32)))
        #expect(try CommandParser.parse(line: line) == command)
        let bad = line.replacingOccurrences(of: String(repeating: "a1", count: 32), with: "xyz")
        #expect(throws: CommandParseError.self) { try CommandParser.parse(line: bad) }
    }
}
