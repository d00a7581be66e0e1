// The wallets events: their tags and the decoders of their older layouts. The current layout of each is
// its fields in declaration order, written by @WireFields (Docs/Events.md).

extension WalletOpened: EventPayloadWire {
    package static var eventTag: EventTag { .walletOpened }
}

extension WalletRenamed: EventPayloadWire {
    package static var eventTag: EventTag { .walletRenamed }
}

extension WalletKindChanged: EventPayloadWire {
    package static var eventTag: EventTag { .walletKindChanged }
}

extension WalletDeactivated: EventPayloadWire {
    package static var eventTag: EventTag { .walletDeactivated }
}

extension WalletReactivated: EventPayloadWire {
    package static var eventTag: EventTag { .walletReactivated }
}

extension WalletClosed: EventPayloadWire {
    package static var eventTag: EventTag { .walletClosed }
}

extension BalanceRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .balanceRecorded }
}

extension WalletReopened: EventPayloadWire {
    package static var eventTag: EventTag { .walletReopened }
}

extension WalletValuationSet: EventPayloadWire {
    package static var eventTag: EventTag { .walletValuationSet }
}

extension WalletDesignationSet: EventPayloadWire {
    package static var eventTag: EventTag { .walletDesignationSet }
}

extension TransferRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .transferRecorded }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        default: try Self(from: &reader)
        }
    }
}

extension TransferDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .transferDeleted }
}

extension BalanceRemoved: EventPayloadWire {
    package static var eventTag: EventTag { .balanceRemoved }
}

extension TransferEdited: EventPayloadWire {
    package static var eventTag: EventTag { .transferEdited }
}

extension WalletBalanceAlertSet: EventPayloadWire {
    package static var eventTag: EventTag { .walletBalanceAlertSet }
}

extension WalletConnectionSet: EventPayloadWire {
    package static var eventTag: EventTag { .walletConnectionSet }
}

/// A connection status is its raw value, one byte.
extension WalletConnectionStatus: WireEnum {}
