import TallyModel

extension FixtureEvents {
    /// Receipts as attachment references (T6, Swiff 2.2.1): `AttachmentAdded` on a transaction
    /// and a group expense, and `AttachmentRemoved`; a person's avatar (`PersonAvatarSet`, Swiff
    /// 1.1.2) with a photo by digest, and one with none; `GroupUpdated` version 2 with an emoji
    /// (Swiff 1.1.2 Group).
    static let attachments: [Event] = {
        let receipt = (try? ContentHash(hex: String(repeating: "a1", count: 32)))
        let invoice = (try? ContentHash(hex: "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0"))
        guard let receipt, let invoice else { return [] }
        let payloads: [EventPayload] = [
            .attachmentAdded(AttachmentAdded(
                item: .transaction(id(32)), contentHash: receipt, name: PersonalText("migros-receipt.jpg", owner: anna),
                byteCount: 48_213, mediaType: "image/jpeg")),
            .attachmentAdded(AttachmentAdded(
                item: .groupExpense(id(70)), contentHash: invoice, name: PersonalText("hut-invoice.pdf", owner: anna),
                byteCount: 1_204_455, mediaType: "application/pdf")),
            .attachmentRemoved(AttachmentRemoved(item: .transaction(id(32)), contentHash: receipt)),
            .personAvatarSet(PersonAvatarSet(personID: ben, avatar: PersonAvatar(emoji: "🚴", color: "#4CAF50", photo: invoice))),
            .personAvatarSet(PersonAvatarSet(personID: ben, avatar: PersonAvatar())),
            .groupUpdated(GroupUpdated(groupID: tripGroup, name: "Ski trip 2027", description: "Verbier", emoji: "⛷")),
        ]
        return payloads.enumerated().map { index, payload in
            Event(commandID: id(6600 + UInt64(index)), actor: anna,
                  recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000 + Int64(index) * 1000), payload: payload)
        }
    }()
}
