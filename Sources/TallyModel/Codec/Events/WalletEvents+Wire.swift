// Binary layout of the wallets events: fields in declaration order (Docs/Events.md).

extension WalletOpened: EventPayloadWire {
    static var eventTag: EventTag { .walletOpened }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            walletID: try reader.read(), name: try reader.read(), kind: try reader.read(),
            currency: try reader.read(), openingBalance: try reader.read(), openedOn: try reader.read(),
            owner: try reader.read()
        )
    }

    func write(to writer: inout BinaryWriter) {
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
    static var eventTag: EventTag { .walletRenamed }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read(), name: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(name)
    }
}

extension WalletKindChanged: EventPayloadWire {
    static var eventTag: EventTag { .walletKindChanged }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read(), kind: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(kind)
    }
}

extension WalletDeactivated: EventPayloadWire {
    static var eventTag: EventTag { .walletDeactivated }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
    }
}

extension WalletReactivated: EventPayloadWire {
    static var eventTag: EventTag { .walletReactivated }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
    }
}

extension WalletClosed: EventPayloadWire {
    static var eventTag: EventTag { .walletClosed }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read(), closedOn: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(closedOn)
    }
}

extension BalanceRecorded: EventPayloadWire {
    static var eventTag: EventTag { .balanceRecorded }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(walletID: try reader.read(), date: try reader.read(), balance: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(walletID)
        writer.write(date)
        writer.write(balance)
    }
}

extension TransferRecorded: EventPayloadWire {
    static var eventTag: EventTag { .transferRecorded }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            transferID: try reader.read(), fromWalletID: try reader.read(), toWalletID: try reader.read(),
            amountSent: try reader.read(), amountReceived: try reader.read(), date: try reader.read(),
            note: try reader.read()
        )
    }

    func write(to writer: inout BinaryWriter) {
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
    static var eventTag: EventTag { .transferDeleted }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transferID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(transferID)
    }
}
