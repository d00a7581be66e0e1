import TallyModel
import TallyProjections

/// T6: files attached to transactions and group expenses, by reference (Docs/Attachments.md).
extension CommandExecutor {
    func validateAttachment(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .addAttachment(let item, let contentHash, let name, let byteCount, let mediaType):
            try requireLiveItem(item, actor: command.actor)
            let onItem = state.attachments(of: item)
            guard !onItem.contains(where: { $0.contentHash == contentHash }) else {
                throw .violation(.attachmentExists, "\(item) has the file \(contentHash) attached already")
            }
            guard onItem.count < LedgerLimits.attachmentsPerItemMax else {
                throw .violation(.attachmentsFull, "\(item) has \(onItem.count) files attached, the most allowed (LedgerLimits.attachmentsPerItemMax); remove one first")
            }
            guard !name.allSatisfy(\.isWhitespace) else {
                throw .violation(.attachmentInvalid, "the attachment's name is empty; give the file's name, e.g. \"receipt.jpg\"")
            }
            guard (1...LedgerLimits.attachmentBytesMax).contains(byteCount) else {
                throw .violation(.attachmentInvalid, "byteCount \(byteCount) is outside 1...\(LedgerLimits.attachmentBytesMax) (LedgerLimits.attachmentBytesMax)")
            }
            guard let type = Self.mediaType(mediaType) else {
                throw .violation(.attachmentInvalid, "mediaType \"\(mediaType)\" is not of the form type/subtype (RFC 6838), e.g. \"image/jpeg\" or \"application/pdf\"")
            }
            return [.attachmentAdded(AttachmentAdded(
                item: item, contentHash: contentHash, name: try entered(name, by: command.actor), byteCount: byteCount, mediaType: type))]
        case .removeAttachment(let item, let contentHash):
            try requireLiveItem(item, actor: command.actor)
            guard state.attachments(of: item).contains(where: { $0.contentHash == contentHash }) else {
                throw .violation(.unknownAttachment, "no file \(contentHash) is attached to \(item)")
            }
            return [.attachmentRemoved(AttachmentRemoved(item: item, contentHash: contentHash))]
        default:
            return []
        }
    }

    /// The item exists, the actor sees it (G7: one they do not see reads as unknown) and it is
    /// live: a deleted item takes no attachment changes until it is restored.
    private func requireLiveItem(_ item: AttachedItem, actor: PersonID) throws(LedgerError) {
        switch state.readModels.standing(of: item, seenBy: .member(actor)) {
        case .live:
            return
        case .deleted:
            switch item {
            case .transaction(let id): throw .violation(.transactionDeleted, "transaction \(id) is deleted; restore it first")
            case .groupExpense(let id): throw .violation(.groupExpenseDeleted, "group expense \(id) is deleted (or its group is); undo the deletion first")
            }
        case .unknown:
            switch item {
            case .transaction(let id): throw .violation(.unknownTransaction, "no transaction with id \(id) is visible to \(actor)")
            case .groupExpense(let id): throw .violation(.unknownGroupExpense, "no group expense with id \(id) is visible to \(actor)")
            }
        }
    }

    /// `text` lowercased when it is `type/subtype` with RFC 6838 restricted names (a letter or
    /// digit, then letters, digits and `!#$&-^_.+`, at most 127 each), else nil.
    static func mediaType(_ text: String) -> String? {
        let parts = text.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&-^_.+")
        for part in parts {
            guard let first = part.first, first.isASCII, first.isLetter || first.isNumber, part.count <= 127,
                  part.allSatisfy(allowed.contains) else { return nil }
        }
        return parts.joined(separator: "/")
    }
}
