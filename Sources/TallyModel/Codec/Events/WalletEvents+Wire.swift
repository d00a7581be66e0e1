// Binary layout of the wallets events: fields in declaration order (Docs/Events.md).

extension WalletOpened: EventPayloadWire {
    package static var eventTag: EventTag { .walletOpened }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            walletID: try reader.read(), name: try reader.read(), kind: try reader.read(),
            currency: try reader.read(), openingBalance: try reader.read(), openedOn: try reader.read(),
            owner: try reader.read()
        )
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(name)
        writer.write(kind)
        writer.write(currency)
        writer.write(openingBalance)
        writer.write(openedOn)
        writer.write(owner)
    }
}

extension WalletRenamed: EventPayloadWire {
    package static var eventTag: EventTag { .walletRenamed }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read(), name: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(name)
    }
}

extension WalletKindChanged: EventPayloadWire {
    package static var eventTag: EventTag { .walletKindChanged }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read(), kind: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(kind)
    }
}

extension WalletDeactivated: EventPayloadWire {
    package static var eventTag: EventTag { .walletDeactivated }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
    }
}

extension WalletReactivated: EventPayloadWire {
    package static var eventTag: EventTag { .walletReactivated }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
    }
}

extension WalletClosed: EventPayloadWire {
    package static var eventTag: EventTag { .walletClosed }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read(), closedOn: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(closedOn)
    }
}

extension BalanceRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .balanceRecorded }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read(), date: try reader.read(), balance: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(date)
        writer.write(balance)
    }
}

extension TransferRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .transferRecorded }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        case 2: try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            transferID: try reader.read(), fromWalletID: try reader.read(), toWalletID: try reader.read(),
            amountSent: try reader.read(), amountReceived: try reader.read(), date: try reader.read(),
            note: try reader.read()
        )
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(transferID)
        writer.write(fromWalletID)
        writer.write(toWalletID)
        writer.write(amountSent)
        writer.write(amountReceived)
        writer.write(date)
        writer.write(note)
    }
}

extension TransferDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .transferDeleted }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transferID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(transferID)
    }
}
